import { Type, type Static } from 'typebox';
import { TRUE_WHEN_CONTAINED } from '../../http/query-names.js';
import { Link, ResourceId, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';

export const AccountReadHeaders = Type.Object({
  ...SignedRequestHeaders.properties,
  'consent-id': Type.Optional(Type.String({ description: 'The consent the read is made under (required: 400 FORMAT_ERROR without it)' })),
  'accept-fix': Type.Optional(Type.String({ description: 'longer-name, cash-account-type-iso, …' })),
  'psu-ip-address': Type.Optional(
    Type.String({ description: 'The PSU takes part now; without it, reads count against the consent frequencyPerDay' }),
  ),
});

/** Berlin Group withBalance: "If contained", so a bare `?withBalance` is true (query-names.ts). */
const withBalance = Type.Optional(
  Type.Boolean({ description: 'Include the balances the consent grants; given without a value: true', [TRUE_WHEN_CONTAINED]: true }),
);

export const WithBalanceQuery = Type.Object({ withBalance }, { additionalProperties: false });

export const AccountIdParams = Type.Object({ accountId: ResourceId });

const Amount = Type.Object({ currency: Type.String(), amount: Type.String() });

const Balance = Type.Object({
  balanceType: Type.String(),
  balanceAmount: Amount,
  creditLimitIncluded: Type.Optional(Type.Boolean()),
  referenceDate: Type.Optional(Type.String()),
  lastChangeDateTime: Type.Optional(Type.String()),
});

const common = {
  resourceId: Type.String(),
  currency: Type.String(),
  ownerName: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  product: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  usage: Type.Optional(Type.String()),
  balances: Type.Optional(Type.Array(Balance)),
  _links: Type.Record(Type.String(), Link),
};

/** Berlin Group accountDetails. */
export const AccountDetails = Type.Object({
  ...common,
  iban: Type.String(),
  bban: Type.String(),
  cashAccountType: Type.Optional(Type.String()),
});

/** Berlin Group cardAccountDetails. */
export const CardAccountDetails = Type.Object({ ...common, maskedPan: Type.String(), creditLimit: Type.Optional(Amount) });

export const AccountListResponse = Type.Object({ accounts: Type.Array(AccountDetails) });
export const CardAccountListResponse = Type.Object({ cardAccounts: Type.Array(CardAccountDetails) });
export const AccountResponse = Type.Object({ account: AccountDetails });
export const CardAccountResponse = Type.Object({ cardAccount: CardAccountDetails });

const Reference = Type.Object({
  iban: Type.Optional(Type.String()),
  maskedPan: Type.Optional(Type.String()),
  currency: Type.Optional(Type.String()),
});
export const AccountBalancesResponse = Type.Object({ account: Reference, balances: Type.Array(Balance) });
export const CardAccountBalancesResponse = Type.Object({ cardAccount: Reference, balances: Type.Array(Balance) });

/*
 * Transaction list queries: every parameter the Berlin Group defines for the operation is a name
 * of the query; what the bank does not offer is refused by transaction-query.ts with
 * PARAMETER_NOT_SUPPORTED, never ignored. Values are read there (bookingStatus in any case).
 */
const cardTransactionListQuery = {
  bookingStatus: Type.Optional(Type.String({ description: 'booked | pending | both (the default) | information (standing orders)' })),
  dateFrom: Type.Optional(Type.String({ description: 'YYYY-MM-DD; 90 days back by the bank clock when absent' })),
  dateTo: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  offset: Type.Optional(Type.String({ description: 'Entries to skip, from 0' })),
  limit: Type.Optional(Type.String({ description: 'Entries per page: 200 by default, at most 1000' })),
  snapshot: Type.Optional(Type.String({ description: 'What the list was as of its first page, as the paging links carry it' })),
  entryReferenceFrom: Type.Optional(Type.String({ description: 'Not offered (400 PARAMETER_NOT_SUPPORTED): page with offset and limit' })),
  deltaList: Type.Optional(Type.Boolean({ description: 'Only false is offered (true: 400 PARAMETER_NOT_SUPPORTED)' })),
};

/** `GET /v1/card-accounts/{id}/transactions`. */
export const CardTransactionListQuerystring = Type.Object(cardTransactionListQuery, { additionalProperties: false });

/** `GET /v1/accounts/{id}/transactions`. */
export const TransactionListQuerystring = Type.Object(
  {
    ...cardTransactionListQuery,
    withBalance: Type.Optional(
      Type.Boolean({ description: 'Accepted and ignored, as the Berlin Group allows: read /balances', [TRUE_WHEN_CONTAINED]: true }),
    ),
    pageIndex: Type.Optional(Type.String({ description: 'Not offered (400 PARAMETER_NOT_SUPPORTED): page with offset and limit' })),
    itemsPerPage: Type.Optional(Type.String({ description: 'Not offered (400 PARAMETER_NOT_SUPPORTED): page with offset and limit' })),
  },
  { additionalProperties: false },
);
export type TransactionListQuerystring = Static<typeof TransactionListQuerystring>;

export const TransactionParams = Type.Object({
  accountId: ResourceId,
  transactionId: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._~:-]+$' }),
});

const AccountReference = Type.Object({ iban: Type.Optional(Type.String()), bban: Type.Optional(Type.String()) });
const StructuredRemittance = Type.Object({ reference: Type.String(), referenceType: Type.Optional(Type.String()) });

/** What a statement line and a standing order show (transaction-views.ts). */
const transferFields = {
  endToEndId: Type.Optional(Type.String()),
  transactionAmount: Amount,
  creditorName: Type.Optional(Type.String()),
  creditorAccount: Type.Optional(AccountReference),
  debtorName: Type.Optional(Type.String()),
  debtorAccount: Type.Optional(AccountReference),
  remittanceInformationUnstructured: Type.Optional(Type.String()),
  remittanceInformationStructuredArray: Type.Optional(Type.Array(StructuredRemittance)),
  bankTransactionCode: Type.Optional(Type.String()),
  proprietaryBankTransactionCode: Type.Optional(Type.String()),
};

/** Berlin Group `transactions`. */
const Transaction = Type.Object({
  transactionId: Type.String(),
  ...transferFields,
  bookingDate: Type.Optional(Type.String()),
  valueDate: Type.Optional(Type.String()),
  _links: Type.Optional(Type.Record(Type.String(), Link)),
});

/** A standing order as an `information` entry: no transactionId, it is no transaction (transaction-views.ts). */
const StandingOrder = Type.Object({
  ...transferFields,
  additionalInformationStructured: Type.Object({
    standingOrderDetails: Type.Object({
      startDate: Type.String(),
      frequency: Type.String(),
      endDate: Type.Optional(Type.String()),
      executionRule: Type.Optional(Type.String()),
      dayOfExecution: Type.Optional(Type.String()),
      monthsOfExecution: Type.Optional(Type.Array(Type.String())),
    }),
  }),
});

/** Berlin Group `cardTransaction`. */
const CardTransaction = Type.Object({
  cardTransactionId: Type.String(),
  transactionDate: Type.String(),
  bookingDate: Type.Optional(Type.String()),
  transactionAmount: Amount,
  originalAmount: Type.Optional(Amount),
  cardAcceptorId: Type.Optional(Type.String()),
  merchantCategoryCode: Type.Optional(Type.String()),
  maskedPAN: Type.String(),
  transactionDetails: Type.Optional(Type.String()),
});

export const TransactionListResponse = Type.Object({
  account: Reference,
  transactions: Type.Object({
    booked: Type.Optional(Type.Array(Transaction)),
    pending: Type.Optional(Type.Array(Transaction)),
    information: Type.Optional(Type.Array(StandingOrder)),
    _links: Type.Record(Type.String(), Link),
  }),
});

export const CardTransactionListResponse = Type.Object({
  cardAccount: Reference,
  cardTransactions: Type.Object({
    booked: Type.Optional(Type.Array(CardTransaction)),
    pending: Type.Optional(Type.Array(CardTransaction)),
    _links: Type.Record(Type.String(), Link),
  }),
});

export const TransactionDetailsResponse = Type.Object({ transactionsDetails: Transaction });
