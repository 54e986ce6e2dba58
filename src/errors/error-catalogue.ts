import type { Localized } from '../domain/localized.js';

/**
 * The one catalogue of errors (docs/design.md §4). Each internal code maps to exactly one HTTP status,
 * the Berlin Group `tppMessages[].code` a TPP branches on, and a text in English and Bokmål.
 * Internal codes are unique; the wire code may be shared where the Berlin Group uses one code for
 * several conditions (RESOURCE_UNKNOWN for an unknown path and an unknown id).
 *
 * Adding a code: add it here; `satisfies` makes the compiler refuse an unmapped one, and
 * `docs/errors.md` is generated from this table (`npm run docs:errors`).
 */
export const ERROR_CATALOGUE = {
  FORMAT_ERROR: {
    status: 400,
    tppCode: 'FORMAT_ERROR',
    text: { en: 'The request is not well formed', nb: 'Forespørselen har feil format' },
  },
  EXECUTION_DATE_INVALID: {
    status: 400,
    tppCode: 'EXECUTION_DATE_INVALID',
    text: { en: 'The requested execution date is not acceptable', nb: 'Ønsket utførelsesdato kan ikke brukes' },
  },
  REQUIRED_KID_MISSING: {
    status: 400,
    tppCode: 'REQUIRED_KID_MISSING',
    text: { en: 'A KID is required but missing', nb: 'KID er påkrevd, men mangler' },
  },
  CORPORATE_ID_REQUIRED: {
    status: 400,
    tppCode: 'FORMAT_ERROR',
    text: {
      en: 'PSU-Corporate-ID is required: the account belongs to a corporate agreement',
      nb: 'PSU-Corporate-ID er påkrevd: kontoen hører til en bedriftsavtale',
    },
  },
  DEBTOR_ACCOUNT_UNKNOWN: {
    status: 400,
    tppCode: 'PAYMENT_FAILED',
    text: { en: 'The debtor account is not an account of this bank', nb: 'Belastningskontoen er ikke en konto i denne banken' },
  },
  DEBTOR_ACCOUNT_NOT_PERMITTED: {
    status: 400,
    tppCode: 'PAYMENT_FAILED',
    text: {
      en: 'The PSU may not register this payment from the debtor account',
      nb: 'Brukeren har ikke rett til å registrere denne betalingen fra belastningskontoen',
    },
  },
  PAYMENT_DUPLICATE: {
    status: 400,
    tppCode: 'PAYMENT_FAILED',
    text: {
      en: 'An equal payment (debtor, creditor, amount, date and remittance) is already in progress',
      nb: 'En lik betaling (belastningskonto, mottaker, beløp, dato og melding) er allerede under behandling',
    },
  },
  REFERENCE_MIX_INVALID: {
    status: 400,
    tppCode: 'REFERENCE_MIX_INVALID',
    text: {
      en: 'These payments cannot be signed together in one basket',
      nb: 'Disse betalingene kan ikke signeres sammen i én signeringskurv',
    },
  },
  PERIOD_INVALID: {
    status: 400,
    tppCode: 'PERIOD_INVALID',
    // A consent's validity and a transaction list's dates alike: the text names neither.
    text: { en: 'The requested period is not acceptable', nb: 'Den ønskede perioden kan ikke brukes' },
  },
  PARAMETER_NOT_SUPPORTED: {
    status: 400,
    tppCode: 'PARAMETER_NOT_SUPPORTED',
    text: {
      en: 'The bank does not offer this optional Berlin Group parameter',
      nb: 'Banken tilbyr ikke denne valgfrie Berlin Group-parameteren',
    },
  },
  LOGIN_CODE_INVALID: {
    status: 401,
    tppCode: 'TOKEN_INVALID',
    text: {
      en: 'The code is unknown, already used, expired or issued to another TPP',
      nb: 'Koden er ukjent, allerede brukt, utløpt eller utstedt til en annen tredjepartstilbyder',
    },
  },
  TIMESTAMP_INVALID: {
    status: 400,
    tppCode: 'TIMESTAMP_INVALID',
    text: {
      en: 'The Date header is outside the accepted time window',
      nb: 'Date-headeren er utenfor det godtatte tidsvinduet',
    },
  },
  SIGNATURE_MISSING: {
    status: 401,
    tppCode: 'SIGNATURE_MISSING',
    text: {
      en: 'The request is not signed: the Signature header is missing',
      nb: 'Forespørselen er ikke signert: Signature-headeren mangler',
    },
  },
  SIGNATURE_INVALID: {
    status: 401,
    tppCode: 'SIGNATURE_INVALID',
    text: { en: 'The request signature is not valid', nb: 'Signaturen på forespørselen er ikke gyldig' },
  },
  CERTIFICATE_MISSING: {
    status: 401,
    tppCode: 'CERTIFICATE_MISSING',
    text: {
      en: 'The signing certificate is missing: send it in TPP-Signature-Certificate',
      nb: 'Signeringssertifikatet mangler: send det i TPP-Signature-Certificate',
    },
  },
  CERTIFICATE_INVALID: {
    status: 401,
    tppCode: 'CERTIFICATE_INVALID',
    text: { en: 'The signing certificate is not valid', nb: 'Signeringssertifikatet er ikke gyldig' },
  },
  CERTIFICATE_EXPIRED: {
    status: 401,
    tppCode: 'CERTIFICATE_EXPIRED',
    text: { en: 'The signing certificate has expired', nb: 'Signeringssertifikatet er utløpt' },
  },
  CERTIFICATE_BLOCKED: {
    status: 401,
    tppCode: 'CERTIFICATE_BLOCKED',
    text: { en: 'The signing certificate is blocked by the bank', nb: 'Signeringssertifikatet er sperret av banken' },
  },
  CERTIFICATE_REVOKED: {
    status: 401,
    tppCode: 'CERTIFICATE_REVOKED',
    text: { en: 'The signing certificate has been revoked by its issuer', nb: 'Signeringssertifikatet er trukket tilbake av utstederen' },
  },
  CORPORATE_ID_INVALID: {
    status: 401,
    tppCode: 'CORPORATE_ID_INVALID',
    text: {
      en: 'PSU-Corporate-ID does not match the agreement of the account',
      nb: 'PSU-Corporate-ID stemmer ikke med avtalen kontoen hører til',
    },
  },
  PSU_REQUIRED: {
    status: 401,
    tppCode: 'PSU_CREDENTIALS_INVALID',
    text: {
      en: 'This request needs an identified PSU: send PSU-ID or a PSU access token, or send the PSU to _links.scaRedirect to log in',
      nb: 'Denne forespørselen krever en identifisert kunde: send PSU-ID eller et tilgangstoken, eller send kunden til _links.scaRedirect for å logge inn',
    },
  },
  TOKEN_INVALID: {
    status: 401,
    tppCode: 'TOKEN_INVALID',
    text: {
      en: 'The PSU access token is not valid for this TPP',
      nb: 'Tilgangstokenet er ikke gyldig for denne tredjepartstilbyderen',
    },
  },
  TOKEN_EXPIRED: {
    status: 401,
    tppCode: 'TOKEN_EXPIRED',
    text: { en: 'The PSU access token has expired', nb: 'Tilgangstokenet er utløpt' },
  },
  ROLE_INVALID: {
    status: 401,
    tppCode: 'ROLE_INVALID',
    text: {
      en: 'The certificate does not carry the PSD2 role this service needs',
      nb: 'Sertifikatet har ikke PSD2-rollen denne tjenesten krever',
    },
  },
  CONSENT_UNKNOWN: {
    status: 401,
    tppCode: 'CONSENT_UNKNOWN',
    text: {
      en: 'The consent is not one this TPP holds',
      nb: 'Samtykket er ikke et denne tredjepartstilbyderen har',
    },
  },
  CONSENT_INVALID: {
    status: 401,
    tppCode: 'CONSENT_INVALID',
    text: { en: 'The consent does not allow this access', nb: 'Samtykket gir ikke denne tilgangen' },
  },
  CONSENT_EXPIRED: {
    status: 401,
    tppCode: 'CONSENT_EXPIRED',
    text: { en: 'The consent has expired or has been used up', nb: 'Samtykket er utløpt eller brukt opp' },
  },
  BANK_REFUSED: {
    status: 403,
    tppCode: 'SERVICE_BLOCKED',
    text: {
      en: 'The bank refuses this service for this account or PSU',
      nb: 'Banken avviser denne tjenesten for denne kontoen eller brukeren',
    },
  },
  RESOURCE_UNKNOWN: {
    status: 404,
    tppCode: 'RESOURCE_UNKNOWN',
    text: { en: 'The addressed resource is unknown', nb: 'Ressursen finnes ikke' },
  },
  PRODUCT_UNKNOWN: {
    status: 404,
    tppCode: 'PRODUCT_UNKNOWN',
    text: { en: 'The payment service does not offer this payment product', nb: 'Betalingstjenesten tilbyr ikke dette betalingsproduktet' },
  },
  ROUTE_UNKNOWN: {
    status: 404,
    tppCode: 'RESOURCE_UNKNOWN',
    text: { en: 'There is no operation at this path', nb: 'Det finnes ingen operasjon på denne adressen' },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    tppCode: 'SERVICE_INVALID',
    text: { en: 'This HTTP method is not allowed at this path', nb: 'Denne HTTP-metoden er ikke tillatt på denne adressen' },
  },
  CANCELLATION_INVALID: {
    status: 405,
    tppCode: 'CANCELLATION_INVALID',
    text: { en: 'The payment can no longer be cancelled', nb: 'Betalingen kan ikke lenger kanselleres' },
  },
  ACCEPT_UNSUPPORTED: {
    status: 406,
    tppCode: 'REQUESTED_FORMATS_INVALID',
    text: {
      en: 'The Accept header must allow application/json',
      nb: 'Accept-headeren må tillate application/json',
    },
  },
  REQUEST_TIMEOUT: {
    status: 408,
    tppCode: 'REQUEST_TIMEOUT',
    text: { en: 'The request was not received in time', nb: 'Forespørselen kom ikke fram i tide' },
  },
  REQUEST_ID_REUSED: {
    status: 409,
    tppCode: 'REQUEST_ID_REUSED',
    text: {
      en: 'This X-Request-ID was already used for a different request',
      nb: 'Denne X-Request-ID er allerede brukt til en annen forespørsel',
    },
  },
  REQUEST_IN_PROGRESS: {
    status: 409,
    tppCode: 'REQUEST_IN_PROGRESS',
    text: {
      en: 'A request with this X-Request-ID is still being processed',
      nb: 'En forespørsel med denne X-Request-ID er fortsatt under behandling',
    },
  },
  REQUEST_ANSWER_LOST: {
    status: 409,
    tppCode: 'REQUEST_ANSWER_LOST',
    text: {
      en: 'The request with this X-Request-ID was carried out, but its answer was lost when the server stopped; read the resource to see the outcome',
      nb: 'Forespørselen med denne X-Request-ID ble utført, men svaret gikk tapt da serveren stoppet; les ressursen for å se utfallet',
    },
  },
  RESOURCE_EXISTS: {
    status: 409,
    tppCode: 'RESOURCE_EXISTS',
    text: {
      en: 'A resource with this identifier already exists',
      nb: 'En ressurs med denne identifikatoren finnes allerede',
    },
  },
  STATUS_INVALID: {
    status: 409,
    tppCode: 'STATUS_INVALID',
    text: {
      en: 'The resource changed status meanwhile; read it again',
      nb: 'Ressursen har endret status i mellomtiden; les den på nytt',
    },
  },
  REFERENCE_STATUS_INVALID: {
    status: 409,
    tppCode: 'REFERENCE_STATUS_INVALID',
    text: {
      en: 'The referenced resource is not in a status that allows this',
      nb: 'Den refererte ressursen har ikke en status som tillater dette',
    },
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    tppCode: 'PAYLOAD_TOO_LARGE',
    text: { en: 'The request body is larger than 1 MiB', nb: 'Forespørselen er større enn 1 MiB' },
  },
  CONTENT_TYPE_UNSUPPORTED: {
    status: 415,
    tppCode: 'UNSUPPORTED_MEDIA_TYPE',
    text: { en: 'The request body must be application/json', nb: 'Forespørselen må være application/json' },
  },
  CONTENT_ENCODING_UNSUPPORTED: {
    status: 415,
    tppCode: 'UNSUPPORTED_MEDIA_TYPE',
    text: {
      en: 'The request body must be sent without a content coding',
      nb: 'Forespørselen må sendes uten innholdskoding',
    },
  },
  EXPECTATION_UNSUPPORTED: {
    status: 417,
    tppCode: 'EXPECTATION_FAILED',
    text: {
      en: 'The Expect header asks for what the server does not do: it knows only 100-continue',
      nb: 'Expect-headeren ber om noe serveren ikke gjør: den kjenner bare 100-continue',
    },
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    tppCode: 'HEADERS_TOO_LARGE',
    text: { en: 'The request headers are too large', nb: 'Forespørselens headere er for store' },
  },
  SYSTEM_ERROR: {
    status: 500,
    tppCode: 'SYSTEM_ERROR',
    text: { en: 'Internal error', nb: 'Intern feil' },
  },
  ACCESS_EXCEEDED: {
    status: 429,
    tppCode: 'ACCESS_EXCEEDED',
    text: {
      en: 'The consent allows no more reads of this without the PSU present now',
      nb: 'Samtykket tillater ikke flere slike oppslag uten at brukeren er til stede nå',
    },
  },
  BANK_UNAVAILABLE: {
    status: 503,
    tppCode: 'SERVICE_UNAVAILABLE',
    text: {
      en: 'The bank behind this service cannot be reached; try again later',
      nb: 'Banken bak tjenesten svarer ikke; prøv igjen senere',
    },
  },
  SERVER_CLOSING: {
    status: 503,
    tppCode: 'SERVICE_UNAVAILABLE',
    text: {
      en: 'The server is shutting down; send the request again',
      nb: 'Tjenesten stenges ned; send forespørselen på nytt',
    },
  },
} as const satisfies Record<string, { status: number; tppCode: string; text: Localized }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export type ErrorEntry = (typeof ERROR_CATALOGUE)[ErrorCode];
