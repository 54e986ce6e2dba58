import { Type, type Static } from 'typebox';
import { MAX_LIST_OFFSET } from '../../domain/list-offset.js';
import { Link, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { Amount, AmountInput, Balance, CalendarDate, CurrencyCode, DisplayName, Id } from './sandbox-common.schemas.js';

const TAGS = ['Sandbox mock data'];

/** First six and last four digits of the card number, the rest masked (`525412******3241`). */
export const MASKED_PAN = '^[0-9]{6}[*X]{6}[0-9]{4}$';

export const NewCardAccount = Type.Object(
  {
    customerNumber: Type.String({ maxLength: 20, description: 'The card holder: a customer of your sandbox' }),
    maskedPan: Type.Optional(Type.String({ pattern: MASKED_PAN, description: 'Generated when absent' })),
    name: Type.Optional(DisplayName),
    product: Type.Optional(DisplayName),
    currency: Type.Optional(CurrencyCode),
    creditLimit: Type.Optional(AmountInput),
  },
  { additionalProperties: false },
);
export type NewCardAccount = Static<typeof NewCardAccount>;

export const CardAccountUpdate = Type.Object(
  // Optional with minProperties rather than required: a body with an unknown field is refused
  // naming that field, not "creditLimit is missing".
  { creditLimit: Type.Optional(AmountInput) },
  { additionalProperties: false, minProperties: 1 },
);
export type CardAccountUpdate = Static<typeof CardAccountUpdate>;

export const CardAccount = Type.Object({
  resourceId: Type.String({ description: 'Opaque id of the mock card account (mockCardAccountId)' }),
  customerNumber: Type.String(),
  maskedPan: Type.String(),
  name: Type.String(),
  product: Type.String(),
  currency: Type.String(),
  creditLimit: Amount,
  balances: Type.Array(Balance),
  _links: Type.Object({ self: Link, transactions: Link }),
});

/** A card transaction in Berlin Group `cardTransaction` terms; without bookingDate it is pending. */
export const NewCardTransaction = Type.Object(
  {
    transactionDate: CalendarDate,
    bookingDate: Type.Optional(CalendarDate),
    transactionAmount: AmountInput,
    originalAmount: Type.Optional(
      Type.Object(AmountInput.properties, {
        additionalProperties: false,
        description: "What the merchant charged, in its own currency (another than the card account's)",
      }),
    ),
    exchangeRate: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,9}(\\.[0-9]{1,10})?$',
        description: 'Card-currency units per unit of originalAmount\'s currency, e.g. "11.7"; derived from the two amounts when absent',
      }),
    ),
    merchantCategoryCode: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
    transactionDetails: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  },
  { additionalProperties: false },
);
export type NewCardTransaction = Static<typeof NewCardTransaction>;

export const CardTransaction = Type.Object({
  cardTransactionId: Type.String(),
  transactionDate: Type.String(),
  bookingDate: Type.Optional(Type.String()),
  transactionAmount: Amount,
  originalAmount: Type.Optional(Amount),
  currencyExchange: Type.Optional(
    Type.Array(
      Type.Object({
        sourceCurrency: Type.String(),
        exchangeRate: Type.String(),
        unitCurrency: Type.String(),
        targetCurrency: Type.String(),
        quotationDate: Type.String(),
      }),
    ),
  ),
  merchantCategoryCode: Type.Optional(Type.String()),
  maskedPAN: Type.String(),
  transactionDetails: Type.Optional(Type.String()),
  _links: Type.Object({ self: Link }),
});

export const CardTransactionQuery = Type.Object({
  bookingStatus: Type.Optional(Type.Union([Type.Literal('booked'), Type.Literal('pending'), Type.Literal('both')], { default: 'both' })),
  dateFrom: Type.Optional(CalendarDate),
  dateTo: Type.Optional(CalendarDate),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_LIST_OFFSET, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
});
export type CardTransactionQuery = Static<typeof CardTransactionQuery>;

const CardAccountParams = Type.Object({ mockCardAccountId: Id });
const CardTransactionParams = Type.Object({ mockCardAccountId: Id, cardTransactionId: Id });

export const createCardAccountSchema = {
  operationId: 'createSandboxCardAccount',
  tags: TAGS,
  summary: 'Create a mock card account for a customer of your sandbox',
  headers: SignedRequestHeaders,
  body: NewCardAccount,
  response: { 201: CardAccount, ...signedErrorResponses() },
};

export const listCardAccountsSchema = {
  operationId: 'listSandboxCardAccounts',
  tags: TAGS,
  summary: "List your sandbox's card accounts",
  headers: SignedRequestHeaders,
  response: { 200: Type.Object({ cardAccounts: Type.Array(CardAccount) }), ...signedErrorResponses() },
};

export const getCardAccountSchema = {
  operationId: 'getSandboxCardAccount',
  tags: TAGS,
  summary: 'Read a mock card account with its balances',
  headers: SignedRequestHeaders,
  params: CardAccountParams,
  response: { 200: CardAccount, ...signedErrorResponses() },
};

export const updateCardAccountSchema = {
  operationId: 'updateSandboxCardAccount',
  tags: TAGS,
  summary: "Change a mock card account's credit limit (a core-system fault is set by PUT …/core-system-fault)",
  headers: SignedRequestHeaders,
  params: CardAccountParams,
  body: CardAccountUpdate,
  response: { 200: CardAccount, ...signedErrorResponses() },
};

export const createCardTransactionSchema = {
  operationId: 'createSandboxCardTransaction',
  tags: TAGS,
  summary: 'Add a transaction to a mock card account',
  headers: SignedRequestHeaders,
  params: CardAccountParams,
  body: NewCardTransaction,
  response: { 201: CardTransaction, ...signedErrorResponses() },
};

export const listCardTransactionsSchema = {
  operationId: 'listSandboxCardTransactions',
  tags: TAGS,
  summary: "List a mock card account's transactions (only those of the sandbox)",
  headers: SignedRequestHeaders,
  params: CardAccountParams,
  querystring: CardTransactionQuery,
  response: {
    200: Type.Object({
      cardAccount: Type.Object({ maskedPan: Type.String(), currency: Type.String() }),
      cardTransactions: Type.Object({ booked: Type.Array(CardTransaction), pending: Type.Array(CardTransaction) }),
      _links: Type.Object({ cardAccount: Link }),
    }),
    ...signedErrorResponses(),
  },
};

export const getCardTransactionSchema = {
  operationId: 'getSandboxCardTransaction',
  tags: TAGS,
  summary: 'Read one transaction of a mock card account',
  headers: SignedRequestHeaders,
  params: CardTransactionParams,
  response: { 200: CardTransaction, ...signedErrorResponses() },
};
