import { Type } from 'typebox';
import { Link, OPTIONAL_BODY, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';

const Count = Type.Integer({ minimum: 0 });

/** The body is optional: without it (or without `seed`) each account's BBAN seeds its history. */
export const InitializeRequest = Type.Object(
  {
    seed: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Varies the generated history; the same seed gives the same transactions again (days relative to today)',
      }),
    ),
  },
  // A bare POST seeds the documented set: the body is optional.
  { additionalProperties: false, [OPTIONAL_BODY]: true },
);

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
    'Removes every customer, account, card account, agreement, engagement and transaction your TPP created (other TPPs keep theirs) and seeds the set documented in the README, with about three months of booked history. Send `{"seed": "…"}` for another history, the same for the same seed.',
  headers: SignedRequestHeaders,
  body: InitializeRequest,
  response: { 200: InitializeSummary, ...signedErrorResponses() },
};
