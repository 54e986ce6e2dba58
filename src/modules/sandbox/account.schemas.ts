import { Type, type Static } from 'typebox';
import { Link, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { Amount, AmountInput, Balance, CurrencyCode, DisplayName, Id } from './sandbox-common.schemas.js';

const TAGS = ['Sandbox mock data'];

const CreditLimitInput = Type.Object(AmountInput.properties, {
  additionalProperties: false,
  description: "The account's credit line, in its currency (0 for none): interimAvailable and the funds check include it",
});

export const NewAccount = Type.Object(
  {
    customerNumber: Type.String({ maxLength: 20, description: 'The owner: a customer of your sandbox' }),
    currency: Type.Optional(CurrencyCode),
    name: Type.Optional(DisplayName),
    product: Type.Optional(DisplayName),
    cashAccountType: Type.Optional(Type.String({ pattern: '^[A-Z]{4}$', description: 'ISO 20022 code such as CACC, SVGS, TAXE' })),
    bban: Type.Optional(Type.String({ maxLength: 34, description: 'Generated with a valid check digit when absent' })),
    iban: Type.Optional(Type.String({ maxLength: 34, description: 'Must be the NO IBAN of bban when both are given' })),
    creditLimit: Type.Optional(CreditLimitInput),
  },
  { additionalProperties: false },
);
export type NewAccount = Static<typeof NewAccount>;

export const AccountUpdate = Type.Object(
  // Optional with minProperties rather than required: a body with an unknown field is refused
  // naming that field, not "creditLimit is missing".
  { creditLimit: Type.Optional(CreditLimitInput) },
  { additionalProperties: false, minProperties: 1 },
);
export type AccountUpdate = Static<typeof AccountUpdate>;

export const BalanceUpdate = Type.Object({ balanceAmount: AmountInput }, { additionalProperties: false });
export type BalanceUpdate = Static<typeof BalanceUpdate>;

export const Account = Type.Object({
  resourceId: Type.String({ description: 'Opaque id of the mock account (mockAccountId)' }),
  customerNumber: Type.String(),
  bban: Type.String(),
  iban: Type.String(),
  currency: Type.String(),
  name: Type.String(),
  product: Type.String(),
  cashAccountType: Type.String(),
  creditLimit: Amount,
  organisationNumber: Type.Optional(Type.String({ description: "The owner's agreement, for a corporate account" })),
  balances: Type.Array(Balance),
  _links: Type.Object({ self: Link, balance: Link, transactions: Link }),
});

export const AccountParams = Type.Object({ mockAccountId: Id });

export const createAccountSchema = {
  operationId: 'createSandboxAccount',
  tags: TAGS,
  summary: 'Create a mock account for a customer of your sandbox',
  headers: SignedRequestHeaders,
  body: NewAccount,
  response: { 201: Account, ...signedErrorResponses() },
};

export const listAccountsSchema = {
  operationId: 'listSandboxAccounts',
  tags: TAGS,
  summary: "List your sandbox's accounts with their balances",
  headers: SignedRequestHeaders,
  response: { 200: Type.Object({ accounts: Type.Array(Account) }), ...signedErrorResponses() },
};

export const getAccountSchema = {
  operationId: 'getSandboxAccount',
  tags: TAGS,
  summary: 'Read a mock account with its balances',
  headers: SignedRequestHeaders,
  params: AccountParams,
  response: { 200: Account, ...signedErrorResponses() },
};

export const putBalanceSchema = {
  operationId: 'putSandboxAccountBalance',
  tags: TAGS,
  summary: 'Set the booked balance: posts one adjustment so closingBooked becomes exactly this amount',
  headers: SignedRequestHeaders,
  params: AccountParams,
  body: BalanceUpdate,
  response: { 200: Account, ...signedErrorResponses() },
};

export const updateAccountSchema = {
  operationId: 'updateSandboxAccount',
  tags: TAGS,
  summary: "Change a mock account's credit line (a core-system fault is set by PUT …/core-system-fault)",
  headers: SignedRequestHeaders,
  params: AccountParams,
  body: AccountUpdate,
  response: { 200: Account, ...signedErrorResponses() },
};
