import { AppError } from '../../errors/app-error.js';
import { localized } from '../../domain/localized.js';
import { readInstantPaymentFees, tierTexts, type InstantPaymentFeeTierText } from './instant-payment-fee.js';
import { instantPaymentFeeRepository } from './instant-payment-fee.repository.js';
import type { SandboxCaller } from './sandbox-bank.model.js';
import { audit, inSandbox, type SandboxDeps } from './sandbox-deps.js';

export interface InstantPaymentFeeList {
  readonly tiers: InstantPaymentFeeTierText[];
}

/** Reads and sets the calling TPP's price list of instant (Straks) payments (docs/design.md §2b). */
export function createInstantPaymentFeeService(deps: SandboxDeps) {
  return {
    async get(caller: SandboxCaller): Promise<InstantPaymentFeeList> {
      return { tiers: tierTexts(await instantPaymentFeeRepository.tiersOf(deps.db, caller.tppId)) };
    },

    /** Replaces the list; a bad one (400 naming the tier) changes nothing. */
    async set(caller: SandboxCaller, list: InstantPaymentFeeList): Promise<InstantPaymentFeeList> {
      const read = readInstantPaymentFees(list.tiers);
      if (!read.ok) {
        throw new AppError('FORMAT_ERROR', {
          path: read.path,
          detail: localized(`${read.path} ${read.reason.en}`, `${read.path} ${read.reason.nb}`),
        });
      }
      const at = deps.now().toISOString();
      return inSandbox(deps.db, caller, at, async (trx) => {
        await instantPaymentFeeRepository.set(trx, caller.tppId, read.tiers, at);
        const tiers = tierTexts(read.tiers);
        await audit(trx, caller, 'sandbox.instant-payment-fees.set', { type: 'sandbox-instant-payment-fees', id: caller.tppId }, at, {
          tiers,
        });
        return { tiers };
      });
    },
  };
}
