import type { AppModule } from '../../app-module.js';
import type { CoreBanking } from '../../bank/core-banking.port.js';
import type { Db } from '../../db/create-db.js';
import type { NokRates } from '../../domain/regulatory-reporting.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import type { BankClock } from '../clock/bank-clock.js';
import { consentApprovalSubject } from '../consents/consent-approval.js';
import { consentRoutes } from '../consents/consent.routes.js';
import { createConsentsService, type ConsentsService } from '../consents/consent.service.js';
import { fundsConfirmationRoutes } from '../funds-confirmations/funds-confirmation.routes.js';
import { createFundsConfirmationService } from '../funds-confirmations/funds-confirmation.service.js';
import { paymentStore } from '../payments/payment-store.js';
import { createAccountReadsService } from './account-reads.service.js';
import { paymentsOnAccount } from './payments-on-account.js';
import { createTransactionReadsService } from './transaction-reads.service.js';
import type { NotificationService } from '../notifications/notification.service.js';
import { accountRoutes } from './account.routes.js';
import { serverSecrets } from '../../security/server-secret.js';

export interface AccountInformationDependencies {
  readonly db: Db;
  readonly coreBanking: CoreBanking;
  readonly authorisations: AuthorisationService;
  /** Whether a consent's TPP-Notification-URI is accepted (docs/notifications.md). */
  readonly notifications: Pick<NotificationService, 'decide'>;
  readonly clock: BankClock;
  readonly publicUrl: string;
  /** The rate table a payment in another currency than its debtor account's is valued by. */
  readonly nokRates: NokRates;
}

export interface AccountInformation {
  readonly consents: ConsentsService;
  /** Every account information route, in the signed `/v1` scope. */
  readonly module: AppModule;
}

/**
 * Account information (docs/design.md §2b) in one piece: consents and their SCA subject, account
 * and card account reads, and the funds confirmation, as one module of the app.
 */
export function createAccountInformation(deps: AccountInformationDependencies): AccountInformation {
  const consents = createConsentsService(deps.db, deps.coreBanking, deps.authorisations, deps.notifications, deps.clock, {
    publicUrl: deps.publicUrl,
  });
  deps.authorisations.registerSubject('consent', consentApprovalSubject(deps.db, deps.coreBanking, deps.clock));
  // One source of our not yet executed payments for the pending lines, the balances and the funds check.
  const payments = paymentsOnAccount(paymentStore, deps.nokRates);
  const reads = createAccountReadsService(deps.db, deps.coreBanking, consents, deps.clock, payments, { publicUrl: deps.publicUrl });
  const secrets = serverSecrets(deps.db);
  const transactions = createTransactionReadsService(
    deps.db,
    deps.coreBanking,
    consents,
    deps.clock,
    payments,
    { publicUrl: deps.publicUrl },
    () => secrets('transaction-snapshot'),
  );
  const funds = createFundsConfirmationService(deps.db, deps.coreBanking, payments, deps.nokRates);
  return {
    consents,
    module: {
      name: 'account-information',
      v1Routes: async (v1) => {
        await v1.register(consentRoutes, { consents, authorisations: deps.authorisations });
        await v1.register(accountRoutes, { reads, transactions });
        await v1.register(fundsConfirmationRoutes, { funds });
      },
    },
  };
}
