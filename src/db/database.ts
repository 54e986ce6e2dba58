import type { TppTable, TppContactTable } from '../modules/tpps/tpp.table.js';
import type { IdempotencyRecordTable } from '../http/idempotency/idempotency.table.js';
import type { AuditEventTable } from '../modules/audit/audit.table.js';
import type { PaymentTable } from '../modules/payments/payment.table.js';
import type { AuthorisationTable } from '../modules/authorisations/authorisation.table.js';
import type { PsuTokenTable } from '../modules/psu-access/psu-token.table.js';
import type { ScaBrowserSessionTable } from '../modules/authorisations/sca-browser-session.table.js';
import type { PsuCodeAttemptTable } from '../modules/authorisations/psu-code-attempt.table.js';
import type { BatchRunTable } from '../modules/execution/batch-run.table.js';
import type { OutcomeFeedCursorTable, PaymentSubmissionTable } from '../modules/execution/payment-submission.table.js';
import type { SandboxOutcomeSequenceTable, SandboxPaymentOutcomeTable } from '../modules/sandbox/sandbox-outcome.table.js';
import type { SandboxClockTable } from '../modules/clock/sandbox-clock.table.js';
import type { SandboxKeyBindingTable } from '../modules/sandbox/tpp-key-binding.table.js';
import type { SigningBasketTable } from '../modules/signing-baskets/signing-basket.table.js';
import type { ConsentTable } from '../modules/consents/consent.table.js';
import type { AccountResourceTable } from '../modules/accounts/account-resource.table.js';
import type { UnattendedReadTable } from '../modules/accounts/unattended-read.table.js';
import type { NotificationOutboxTable, NotificationSubscriptionTable } from '../modules/notifications/notification.table.js';
import type { SandboxCoreSystemFaultTable } from '../modules/sandbox/core-system-fault.table.js';
import type { PsuOverviewSessionTable } from '../modules/psu-overview/psu-overview-session.table.js';
import type { PsuPageLinkTable } from '../modules/psu-overview/psu-page-link.table.js';
import type { SandboxInstantPaymentFeeTable } from '../modules/sandbox/instant-payment-fee.table.js';
import type { ServerSecretTable } from '../security/server-secret.table.js';
import type { LedgerBalanceTable, LedgerEntryTable, LedgerDayTotalTable, LedgerTransactionTable } from '../modules/ledger/ledger.table.js';
import type {
  SandboxAccountTable,
  SandboxAgreementTable,
  SandboxCardAccountTable,
  SandboxCardTransactionTable,
  SandboxCustomerTable,
  SandboxEngagementTable,
  SandboxTenantTable,
  SandboxTransactionTable,
} from '../modules/sandbox/sandbox-bank.table.js';

/** Every table, for Kysely's typing. Each module declares its own tables in `*.table.ts`. */
export interface Database {
  tpp: TppTable;
  tpp_contact: TppContactTable;
  idempotency_record: IdempotencyRecordTable;
  audit_event: AuditEventTable;
  ledger_transaction: LedgerTransactionTable;
  ledger_entry: LedgerEntryTable;
  ledger_balance: LedgerBalanceTable;
  ledger_day_total: LedgerDayTotalTable;
  sandbox_tenant: SandboxTenantTable;
  sandbox_customer: SandboxCustomerTable;
  sandbox_account: SandboxAccountTable;
  sandbox_agreement: SandboxAgreementTable;
  sandbox_engagement: SandboxEngagementTable;
  sandbox_transaction: SandboxTransactionTable;
  sandbox_card_account: SandboxCardAccountTable;
  sandbox_card_transaction: SandboxCardTransactionTable;
  payment: PaymentTable;
  authorisation: AuthorisationTable;
  psu_token: PsuTokenTable;
  sca_browser_session: ScaBrowserSessionTable;
  psu_code_attempt: PsuCodeAttemptTable;
  signing_basket: SigningBasketTable;
  batch_run: BatchRunTable;
  payment_submission: PaymentSubmissionTable;
  outcome_feed_cursor: OutcomeFeedCursorTable;
  sandbox_payment_outcome: SandboxPaymentOutcomeTable;
  sandbox_outcome_sequence: SandboxOutcomeSequenceTable;
  sandbox_clock: SandboxClockTable;
  sandbox_key_binding: SandboxKeyBindingTable;
  consent: ConsentTable;
  account_resource: AccountResourceTable;
  unattended_read: UnattendedReadTable;
  sandbox_core_system_fault: SandboxCoreSystemFaultTable;
  psu_overview_session: PsuOverviewSessionTable;
  psu_page_link: PsuPageLinkTable;
  sandbox_instant_payment_fee: SandboxInstantPaymentFeeTable;
  notification_subscription: NotificationSubscriptionTable;
  notification_outbox: NotificationOutboxTable;
  server_secret: ServerSecretTable;
}
