import { sameSecret } from '../../security/same-secret.js';
import type { InPageCodeAuthenticator } from '../../bank/psu-authenticator.port.js';
import type { Db } from '../../db/create-db.js';
import { customerRepository } from './customer.repository.js';

/** The sandbox's one-time code (docs/design.md §6): any other code is wrong. */
export const SANDBOX_ONE_TIME_CODE = '123456';

/**
 * The sandbox authenticator: a PSU is any customer in the calling TPP's mock data, the one-time
 * code is always {@link SANDBOX_ONE_TIME_CODE}, and the app confirmation (biometric shortcut) is
 * simulated as given.
 */
export function createSandboxPsuAuthenticator(db: Db): InPageCodeAuthenticator {
  return {
    kind: 'in-page-code',
    async isCustomer(scope, psuId) {
      return (await customerRepository.findByNumber(db, scope.tppId, psuId)) !== undefined;
    },
    async verifyOneTimeCode(_scope, _psuId, code) {
      return sameSecret(SANDBOX_ONE_TIME_CODE, code);
    },
    offersAppConfirmation: true,
    // The sandbox has no app: its confirmation is simulated as given (as the code is public here too).
    async confirmedInApp() {
      return true;
    },
  };
}
