import { Type, type Static } from 'typebox';
import { Link, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { AccountParams } from './account.schemas.js';
import { AccountReference, AccountReferenceInput, Amount, AmountInput, CalendarDate, DisplayName, Id } from './sandbox-common.schemas.js';
import { TRANSACTION_PROFILES } from './transaction-generator.js';

const TAGS = ['Sandbox mock data'];

/** A booked or pending transaction in Berlin Group `transactions` terms, as the mock account sees it. */
/** A KID as a mock transaction's structured remittance. */
const KidInput = Type.Object(
  {
    reference: Type.String({ minLength: 1, maxLength: 35, description: 'A KID (MOD10 or MOD11)' }),
    referenceType: Type.Optional(Type.Literal('SCOR')),
  },
  { additionalProperties: false },
);

export const NewTransaction = Type.Object(
  {
    bookingStatus: Type.Optional(
      Type.Union([Type.Literal('booked'), Type.Literal('pending')], {
        description:
          'booked (default): dated today or earlier. pending: not yet booked (a card reservation, a payment due); its dates are when it is expected to be booked, today up to 30 days ahead; it counts in expected and interimAvailable, not in closingBooked',
      }),
    ),
    bookingDate: CalendarDate,
    valueDate: CalendarDate,
    transactionAmount: Type.Object(AmountInput.properties, {
      additionalProperties: false,
      description: 'Negative: a debit (the mock account is the debtor). Positive: a credit (the mock account is the creditor)',
    }),
    debtorAccount: Type.Optional(AccountReferenceInput),
    debtorName: Type.Optional(DisplayName),
    creditorAccount: Type.Optional(AccountReferenceInput),
    creditorName: Type.Optional(DisplayName),
    remittanceInformationUnstructured: Type.Optional(Type.String({ minLength: 1, maxLength: 140 })),
    remittanceInformationStructured: Type.Optional(
      Type.Object(KidInput.properties, {
        additionalProperties: false,
        deprecated: true,
        description: 'Deprecated: send remittanceInformationStructuredArray (never both). Answered as the array',
      }),
    ),
    remittanceInformationStructuredArray: Type.Optional(
      Type.Array(KidInput, { minItems: 1, maxItems: 1, description: 'The KID: a mock transaction carries one' }),
    ),
  },
  { additionalProperties: false },
);
export type NewTransaction = Static<typeof NewTransaction>;

export const FillRequest = Type.Object(
  {
    count: Type.Integer({ minimum: 1, maximum: 500 }),
    dateFrom: CalendarDate,
    dateTo: CalendarDate,
    seed: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Same seed and request, same transactions' })),
    profile: Type.Optional(Type.Enum(TRANSACTION_PROFILES, { description: "Defaults to private or corporate after the account's owner" })),
  },
  { additionalProperties: false },
);
export type FillRequest = Static<typeof FillRequest>;

export const Transaction = Type.Object({
  transactionId: Type.String(),
  bookingDate: Type.String(),
  valueDate: Type.String(),
  transactionAmount: Amount,
  creditorName: Type.Optional(Type.String()),
  creditorAccount: Type.Optional(AccountReference),
  debtorName: Type.Optional(Type.String()),
  debtorAccount: Type.Optional(AccountReference),
  remittanceInformationUnstructured: Type.Optional(Type.String()),
  remittanceInformationStructuredArray: Type.Optional(Type.Array(Type.Object({ reference: Type.String(), referenceType: Type.String() }))),
  _links: Type.Object({ self: Link, transactionDetails: Link }),
});

const TransactionReport = Type.Object({
  account: AccountReference,
  transactions: Type.Object({ booked: Type.Array(Transaction), pending: Type.Array(Transaction) }),
  _links: Type.Object({ account: Link }),
});

const FillResult = Type.Object({
  count: Type.Integer(),
  seed: Type.String(),
  profile: Type.String(),
  transactions: Type.Array(Transaction),
  _links: Type.Object({ self: Link, account: Link }),
});

const TransactionParams = Type.Object({ mockAccountId: Id, transactionId: Id });

export const createTransactionSchema = {
  operationId: 'createSandboxAccountTransaction',
  tags: TAGS,
  summary: 'Book a transaction on a mock account',
  headers: SignedRequestHeaders,
  params: AccountParams,
  body: NewTransaction,
  response: { 201: Transaction, ...signedErrorResponses() },
};

export const fillTransactionsSchema = {
  operationId: 'fillSandboxAccountTransactions',
  tags: TAGS,
  summary: 'Generate realistic Norwegian transactions on a mock account (data fill)',
  headers: SignedRequestHeaders,
  params: AccountParams,
  body: FillRequest,
  response: { 201: FillResult, ...signedErrorResponses() },
};

export const listTransactionsSchema = {
  operationId: 'listSandboxAccountTransactions',
  tags: TAGS,
  summary: "List a mock account's transactions",
  headers: SignedRequestHeaders,
  params: AccountParams,
  response: { 200: TransactionReport, ...signedErrorResponses() },
};

export const getTransactionSchema = {
  operationId: 'getSandboxAccountTransaction',
  tags: TAGS,
  summary: 'Read one transaction of a mock account',
  headers: SignedRequestHeaders,
  params: TransactionParams,
  response: { 200: Transaction, ...signedErrorResponses() },
};
