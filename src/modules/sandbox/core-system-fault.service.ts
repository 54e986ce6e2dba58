import { localized } from '../../domain/localized.js';
import { accountRepository } from './account.repository.js';
import { cardAccountRepository } from './card-account.repository.js';
import type { CoreSystemFault } from './core-system-fault.js';
import { coreSystemFaultRepository } from './core-system-fault.repository.js';
import type { SandboxCaller } from './sandbox-bank.model.js';
import { inSandbox, unknown, type SandboxDeps } from './sandbox-deps.js';

/** Sets or clears the core-system fault a mock account (or card account) simulates; 404 for one the TPP does not have. */
export function createCoreSystemFaultService(deps: SandboxDeps) {
  return {
    async set(caller: SandboxCaller, type: 'account' | 'card', mockId: string, fault: CoreSystemFault | undefined) {
      return inSandbox(deps.db, caller, deps.now().toISOString(), async (trx) => {
        const found =
          type === 'account'
            ? await accountRepository.findById(trx, caller.tppId, mockId)
            : await cardAccountRepository.findById(trx, caller.tppId, mockId);
        if (!found) {
          unknown(
            type === 'account' ? 'mockAccountId' : 'mockCardAccountId',
            localized('no such mock account in this sandbox', 'ingen slik testkonto i denne sandkassen'),
          );
        }
        await coreSystemFaultRepository.set(trx, caller.tppId, mockId, fault);
        return { fault: fault ?? null };
      });
    },
  };
}
