import { Type, type Static } from 'typebox';
import { localized } from '../../domain/localized.js';
import {
  BERLIN_GROUP_NOT_TAKEN,
  Link,
  NotificationRequestHeaders,
  ResourceId,
  SignedRequestHeaders,
} from '../../http/schemas/common.schemas.js';
import { CONSENT_STATUSES, type ConsentStatus as ConsentStatusValue } from './consent-status.js';

/*
 * Wire schemas of consents (Berlin Group 1.3.12 names). They check shape and types; the rules
 * (which fields go together, check digits, dates) live in consent-access.ts and
 * consent-validity.ts, which name the field they refuse just as these do. Unknown fields are
 * refused, so a misspelt one is never ignored.
 */

const strict = { additionalProperties: false } as const;

/** An account in a consent: `bban` or `iban` for a payment account, `maskedPan` for a card account. */
export const ConsentAccountReference = Type.Object(
  {
    iban: Type.Optional(Type.String({ maxLength: 42 })),
    bban: Type.Optional(Type.String({ maxLength: 30 })),
    maskedPan: Type.Optional(Type.String({ maxLength: 35, description: 'e.g. 525412******3241' })),
    pan: Type.Optional(Type.String({ maxLength: 35, description: 'Refused: name a card account by maskedPan' })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  },
  { ...strict, [BERLIN_GROUP_NOT_TAKEN]: consentReferencesNotTaken() },
);

/** The Berlin Group accountReference members a consent's accounts are not named by. */
function consentReferencesNotTaken() {
  const byNumber = localized(
    'a consent names a payment account by bban or iban, a card account by maskedPan',
    'et samtykke oppgir en konto med bban eller iban, en kortkonto med maskedPan',
  );
  return { msisdn: byNumber, other: byNumber, cashAccountType: byNumber };
}

const References = Type.Array(ConsentAccountReference, { maxItems: 100 });
const AllAccounts = Type.Union([Type.Literal('allAccounts'), Type.Literal('allAccountsWithOwnerName')]);

export const AccountAccess = Type.Object(
  {
    accounts: Type.Optional(References),
    balances: Type.Optional(References),
    transactions: Type.Optional(References),
    additionalInformation: Type.Optional(
      Type.Object(
        { ownerName: Type.Optional(References) },
        {
          ...strict,
          [BERLIN_GROUP_NOT_TAKEN]: {
            trustedBeneficiaries: localized(
              'the bank keeps no list of trusted beneficiaries to give access to',
              'banken har ingen liste over betrodde mottakere å gi tilgang til',
            ),
          },
        },
      ),
    ),
    availableAccounts: Type.Optional(AllAccounts),
    availableAccountsWithBalance: Type.Optional(AllAccounts),
    allPsd2: Type.Optional(AllAccounts),
  },
  {
    ...strict,
    description: 'Empty accounts/balances/transactions lists: the PSU picks the accounts on the SCA page',
    [BERLIN_GROUP_NOT_TAKEN]: {
      restrictedTo: localized(
        'a consent is not restricted by account type here: name the accounts, or let the PSU pick them on the SCA page',
        'et samtykke begrenses ikke etter kontotype her: oppgi kontoene, eller la brukeren velge dem på SCA-siden',
      ),
    },
  },
);

export const ConsentBody = Type.Object(
  {
    access: AccountAccess,
    recurringIndicator: Type.Boolean(),
    validUntil: Type.String({ maxLength: 10, description: 'YYYY-MM-DD; later than 180 days from today is capped to that day' }),
    // Any count a TPP asks is taken and capped (the Berlin Group sets no maximum); the bound only
    // keeps the number an int32.
    frequencyPerDay: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Capped at 4; a one-off consent has 1' }),
    combinedServiceIndicator: Type.Optional(Type.Boolean({ description: 'Must be false: combined sessions are not offered' })),
  },
  strict,
);
export type ConsentBody = Static<typeof ConsentBody>;

export const ConsentStatus = Type.Unsafe<ConsentStatusValue>(Type.String({ enum: [...CONSENT_STATUSES] }));

export const ConsentCreatedResponse = Type.Object({
  consentStatus: ConsentStatus,
  consentId: Type.String(),
  _links: Type.Record(Type.String(), Link),
});

export const ConsentInformationResponse = Type.Object({
  access: Type.Object({}, { additionalProperties: true }),
  recurringIndicator: Type.Boolean(),
  validUntil: Type.String(),
  frequencyPerDay: Type.Integer(),
  lastActionDate: Type.String(),
  consentStatus: ConsentStatus,
  _links: Type.Record(Type.String(), Link),
});

export const ConsentStatusResponse = Type.Object({ consentStatus: ConsentStatus });

export const ConsentIdParams = Type.Object({ consentId: ResourceId });

export const ConsentCreationHeaders = Type.Object({
  ...SignedRequestHeaders.properties,
  'psu-id': Type.Optional(Type.String({ description: 'Norwegian national identity number of the PSU' })),
  'psu-corporate-id': Type.Optional(
    Type.String({ description: 'Organisation number: the PSU shares accounts of this corporate agreement' }),
  ),
  'tpp-redirect-uri': Type.Optional(Type.String()),
  'tpp-nok-redirect-uri': Type.Optional(Type.String()),
  'tpp-explicit-authorisation-preferred': Type.Optional(Type.String({ description: 'true: the TPP starts the authorisation itself' })),
  ...NotificationRequestHeaders,
});
