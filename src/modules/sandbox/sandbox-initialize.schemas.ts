import { Type } from 'typebox';
import { Link, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';

const Count = Type.Integer({ minimum: 0 });

export const InitializeSummary = Type.Object({
  customers: Count,
  accounts: Count,
  cardAccounts: Count,
  agreements: Count,
  engagements: Count,
  transactions: Count,
  cardTransactions: Count,
  _links: Type.Object({ customers: Link, accounts: Link, cardAccounts: Link, agreements: Link }),
});

export const initializeSchema = {
  operationId: 'initializeSandbox',
  tags: ['Sandbox mock data'],
  summary: "Wipe your sandbox's mock data and seed the documented test customers, accounts and agreements",
  description:
    'Removes every customer, account, card account, agreement, engagement and transaction your TPP created (other TPPs keep theirs) and seeds the set documented in the README, with about three months of booked history.',
  headers: SignedRequestHeaders,
  response: { 200: InitializeSummary, ...signedErrorResponses() },
};
