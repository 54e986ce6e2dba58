import { Type } from 'typebox';
import { Link, ResourceId, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';

export const AccountReadHeaders = Type.Object({
  ...SignedRequestHeaders.properties,
  'consent-id': Type.Optional(Type.String({ description: 'The consent the read is made under (required: 400 FORMAT_ERROR without it)' })),
  'accept-fix': Type.Optional(Type.String({ description: 'longer-name, cash-account-type-iso, …' })),
});

export const WithBalanceQuery = Type.Object(
  { withBalance: Type.Optional(Type.Boolean({ description: 'Include the balances the consent grants' })) },
  { additionalProperties: false },
);

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
