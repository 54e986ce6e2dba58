import { Type, type Static } from 'typebox';
import { Link, NoBody, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { ENGAGEMENT_ROLES } from './sandbox-bank.model.js';
import { AccountReference, AccountReferenceInput, DisplayName, Id } from './sandbox-common.schemas.js';

const TAGS = ['Sandbox mock data'];

const LimitInput = Type.String({
  maxLength: 32,
  description: "Amount string in the account's currency; 0 means no right, absent means no limit",
});

/** The real sandbox's engagement body, with the limits as amount strings (docs/design.md §2). */
export const NewEngagement = Type.Object(
  {
    customer: Type.String({ maxLength: 20, description: 'customerNumber of the PSU who may use the account' }),
    account: AccountReferenceInput,
    roles: Type.Array(Type.Enum(ENGAGEMENT_ROLES), { minItems: 1, uniqueItems: true, description: 'REGISTER and/or VIEW' }),
    registerLimit: Type.Optional(LimitInput),
    approvalLimit: Type.Optional(LimitInput),
    consentNeedsSecondApprover: Type.Optional(
      Type.Boolean({
        description:
          'true: a consent sharing this account that the PSU approves waits (partiallyAuthorised) for a second approver of the agreement. Absent or false: the PSU approves alone',
      }),
    ),
  },
  { additionalProperties: false },
);
export type NewEngagement = Static<typeof NewEngagement>;

export const NewAgreement = Type.Object(
  {
    owner: Type.String({ maxLength: 20, description: 'customerNumber of the CORPORATE customer' }),
    organisationNumber: Type.Optional(Type.String({ maxLength: 20, description: 'Generated with a valid check digit when absent' })),
    name: Type.Optional(DisplayName),
    engagements: Type.Optional(Type.Array(NewEngagement, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type NewAgreement = Static<typeof NewAgreement>;

export const Engagement = Type.Object({
  engagementId: Type.String(),
  customer: Type.String(),
  account: AccountReference,
  roles: Type.Array(Type.String()),
  registerLimit: Type.Optional(Type.String()),
  approvalLimit: Type.Optional(Type.String()),
  consentNeedsSecondApprover: Type.Optional(Type.Boolean()),
  _links: Type.Object({ self: Link }),
});

export const Agreement = Type.Object({
  agreementId: Type.String({ description: 'Opaque id of the mock agreement (mockAgreementId)' }),
  owner: Type.String(),
  organisationNumber: Type.String({ description: 'What PSU-Corporate-ID carries for this agreement' }),
  name: Type.String(),
  engagements: Type.Array(Engagement),
  _links: Type.Object({ self: Link, engagements: Link }),
});

const AgreementParams = Type.Object({ mockAgreementId: Id });
const EngagementParams = Type.Object({ mockAgreementId: Id, engagementId: Id });

export const createAgreementSchema = {
  operationId: 'createSandboxAgreement',
  tags: TAGS,
  summary: 'Create the agreement of a corporate customer, optionally with engagements',
  headers: SignedRequestHeaders,
  body: NewAgreement,
  response: { 201: Agreement, ...signedErrorResponses() },
};

export const listAgreementsSchema = {
  operationId: 'listSandboxAgreements',
  tags: TAGS,
  summary: "List your sandbox's agreements",
  headers: SignedRequestHeaders,
  response: { 200: Type.Object({ agreements: Type.Array(Agreement) }), ...signedErrorResponses() },
};

export const getAgreementSchema = {
  operationId: 'getSandboxAgreement',
  tags: TAGS,
  summary: 'Read an agreement with its engagements',
  headers: SignedRequestHeaders,
  params: AgreementParams,
  response: { 200: Agreement, ...signedErrorResponses() },
};

export const createEngagementSchema = {
  operationId: 'createSandboxEngagement',
  tags: TAGS,
  summary: "Let a PSU use one of the corporation's accounts",
  headers: SignedRequestHeaders,
  params: AgreementParams,
  body: NewEngagement,
  response: { 201: Engagement, ...signedErrorResponses() },
};

export const getEngagementSchema = {
  operationId: 'getSandboxEngagement',
  tags: TAGS,
  summary: 'Read an engagement',
  headers: SignedRequestHeaders,
  params: EngagementParams,
  response: { 200: Engagement, ...signedErrorResponses() },
};

export const deleteEngagementSchema = {
  operationId: 'deleteSandboxEngagement',
  tags: TAGS,
  summary: "Withdraw a PSU's access to an account of the agreement (e.g. to see a payment in a signing basket fail at approval)",
  headers: SignedRequestHeaders,
  params: EngagementParams,
  body: NoBody,
  response: { 204: Type.Null(), ...signedErrorResponses() },
};
