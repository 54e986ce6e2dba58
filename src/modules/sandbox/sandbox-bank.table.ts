/**
 * The sandbox bank's tables. Every row carries `tpp_id`, and every query filters on it: a TPP's
 * sandbox is its own. Money columns are bigint minor units; read them with `cast(… as text)`.
 */

/** A TPP with sandbox data; its row is the lock that serialises that TPP's mock-data writes. */
export interface SandboxTenantTable {
  tpp_id: string;
  changed_at: string;
}

/** A test customer: a person (PRIVATE) or a corporation (CORPORATE). */
export interface SandboxCustomerTable {
  /** Opaque: a random UUID. */
  id: string;
  tpp_id: string;
  /** 11-digit national identity number; the PSU-ID at SCA. Unique per TPP. */
  customer_number: string;
  /** PRIVATE | CORPORATE */
  customer_type: string;
  name: string;
  created_at: string;
}

export interface SandboxAccountTable {
  id: string;
  tpp_id: string;
  /** The owner. */
  customer_id: string;
  /** Norwegian BBAN, MOD11-valid; unique per TPP. */
  bban: string;
  /** The NO IBAN of `bban`. */
  iban: string;
  currency: string;
  name: string;
  product: string;
  /** ISO 20022 ExternalCashAccountType1Code, e.g. CACC, SVGS, TAXE. */
  cash_account_type: string;
  /** The credit line in the account's currency (0: none); included in interimAvailable. */
  credit_limit_minor: bigint | string;
  created_at: string;
}

/** A corporation's agreement with the bank; one per corporate customer. */
export interface SandboxAgreementTable {
  id: string;
  tpp_id: string;
  /** The corporate owner. */
  customer_id: string;
  /** 9 digits, MOD11: what PSU-Corporate-ID carries. */
  organisation_number: string;
  name: string;
  created_at: string;
}

/** What a PSU may do with one of a corporation's accounts under its agreement. */
export interface SandboxEngagementTable {
  id: string;
  tpp_id: string;
  agreement_id: string;
  /** The PSU. */
  customer_id: string;
  account_id: string;
  /** Comma-separated REGISTER, VIEW. */
  roles: string;
  /** In the account's currency; null means no limit, 0 means no right. */
  register_limit_minor: bigint | string | null;
  approval_limit_minor: bigint | string | null;
  /** A consent sharing the account through it needs a second approver of the agreement (migration 0018). */
  consent_needs_second_approver: number | boolean;
  created_at: string;
}

/** The descriptive side of a mock account transaction; its money is a ledger posting. */
export interface SandboxTransactionTable {
  /** Opaque transactionId; the ledger posting's key is `sandbox:transaction:<id>`. */
  id: string;
  tpp_id: string;
  account_id: string;
  /** booked | pending */
  status: string;
  booking_date: string;
  value_date: string;
  /** Signed, as seen from the mock account: negative is a debit. */
  amount_minor: bigint | string;
  currency: string;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  counterparty_bban: string | null;
  remittance_unstructured: string | null;
  /** A KID (remittanceInformationStructured.reference, referenceType SCOR). */
  remittance_reference: string | null;
  created_at: string;
}

export interface SandboxCardAccountTable {
  id: string;
  tpp_id: string;
  customer_id: string;
  /** e.g. 525412******3241 */
  masked_pan: string;
  name: string;
  product: string;
  currency: string;
  credit_limit_minor: bigint | string;
  created_at: string;
}

export interface SandboxCardTransactionTable {
  /** Opaque cardTransactionId; the ledger posting's key is `sandbox:card-transaction:<id>`. */
  id: string;
  tpp_id: string;
  card_account_id: string;
  /** booked | pending: a transaction without booking date is pending. */
  status: string;
  transaction_date: string;
  booking_date: string | null;
  /** Signed: a purchase is negative. */
  amount_minor: bigint | string;
  currency: string;
  original_amount_minor: bigint | string | null;
  original_currency: string | null;
  /** Card-currency units per unit of the original currency (decimal text), for a foreign purchase. */
  exchange_rate: string | null;
  merchant_category_code: string | null;
  transaction_details: string | null;
  created_at: string;
}
