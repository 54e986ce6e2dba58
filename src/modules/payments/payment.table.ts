import type { PaymentProduct, PaymentService } from './payment-products.js';
import type { TransactionStatus } from './payment-status.js';

/**
 * A payment initiation resource (single, bulk or periodic), see migration 0004. The enumerated
 * columns carry their unions, so Kysely checks every value written and compared at compile time;
 * the repository still checks the status it reads (a row written by hand or by another version).
 */
export interface PaymentTable {
  id: string;
  tpp_id: string;
  service: PaymentService;
  /** The product path segment, e.g. norwegian-domestic-credit-transfers. */
  product: PaymentProduct;
  /** Berlin Group transactionStatus (RCVD, ACTC, …), payment-status.ts. */
  status: TransactionStatus;
  /** Why the last status change happened, for RJCT and CANC. */
  status_reason: string | null;
  /** Set once a funds check has happened (ACCP with false, ACSC with true). */
  funds_available: number | boolean | null;
  request_id: string;
  psu_id: string | null;
  psu_corporate_id: string | null;
  /** The bank's id of the debtor account (core-banking port). */
  debtor_account_id: string;
  currency: string;
  /** The instructed amount (bulk: the sum of its payments); bigint, read with `cast(… as text)`. */
  amount_minor: bigint | string;
  requested_execution_date: string | null;
  /** Fingerprint of debtor, creditor, amount, date and remittance for the logical-duplicate rule. */
  logical_key: string | null;
  /** The validated request body as JSON, in the version `body_version` (payment-document.ts). */
  body: string;
  /** The version of `body` (migration 0013; rows written before it are version 1). Always written. */
  body_version: number;
  /** JSON: redirect URIs, PSU context headers and preferences sent with the creation. */
  request_context: string;
  created_at: string;
  status_changed_at: string;
  /** The open signing basket that holds it (migration 0006): it is approved through the basket only. */
  basket_id: string | null;
  /** The TPP's bank date the payment first lacked funds (ACCP), migration 0008. */
  awaiting_funds_since: string | null;
  /** An instant payment's fee quoted at initiation, in minor units of `transaction_fee_currency` (migration 0019). */
  transaction_fee_minor: bigint | string | null;
  transaction_fee_currency: string | null;
}
