import type { BankScope } from './core-banking.port.js';

/**
 * The bank's authenticator behind the SCA pages (docs/design.md §6): it knows its customers and checks the
 * one-time code a PSU types. The sandbox's accepts one documented code; a bank deploying
 * nordic-xs2a implements this port against its own authentication service.
 */
export interface PsuAuthenticator {
  /** Whether the PSU-ID names a customer of the bank (the identify page refuses other numbers). */
  isCustomer(scope: BankScope, psuId: string): Promise<boolean>;
  /** Whether `code` is the PSU's valid one-time code now. */
  verifyOneTimeCode(scope: BankScope, psuId: string, code: string): Promise<boolean>;
  /**
   * Whether the bank's app (biometric, on the PSU's phone) is offered in place of the code. False
   * where the bank has no app.
   */
  readonly offersAppConfirmation: boolean;
  /**
   * Whether the PSU confirmed this authorisation in the bank's app; the bank's app service decides
   * (its push and biometric check), never the page's word for it.
   */
  confirmedInApp(scope: BankScope, psuId: string, authorisationId: string): Promise<boolean>;
}
