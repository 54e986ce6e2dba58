import type { Check, Localized } from '../../domain/localized.js';
import { checkNorwegianIdentityNumber, type NorwegianIdentityNumber } from '../../domain/norwegian-identity-number.js';
import { checkOrganisationNumber } from '../../domain/organisation-number.js';
import { checkAcceptFix, type AcceptFixName } from '../../domain/accept-fix.js';
import { checkBooleanHeader } from './boolean-header.js';
import { checkPsuContext, PSU_CONTEXT_HEADERS, type PsuContext } from './psu-context.js';
import { checkRedirectUri } from './redirect-uri.js';
import { checkTppSessionId } from './session-id.js';

/** The optional Berlin Group request headers after validation; absent headers are undefined. */
export interface RequestHeaders {
  readonly psuId?: NorwegianIdentityNumber;
  readonly psuCorporateId?: string;
  readonly tppRedirectUri?: string;
  readonly tppNokRedirectUri?: string;
  /** The union of `accept-fix` and `x-accept-fix`; empty when neither was sent. */
  readonly acceptFixes: ReadonlySet<AcceptFixName>;
  readonly tppSessionId?: string;
  readonly biometricAuthentication: boolean;
  readonly tppExplicitAuthorisationPreferred: boolean;
  readonly tppRedirectPreferred?: boolean;
  /** Only the PSU-* context headers that were sent. */
  readonly psuContext: PsuContext;
  /**
   * TPP-Notification-URI and TPP-Notification-Content-Preferred as sent: a creating request's wish
   * for status notifications. Not refused here: a URI the bank will not send to is answered with
   * ASPSP-Notification-Support: false, never a 400 (the notifications module decides).
   */
  readonly notification: { readonly uri?: string; readonly contentPreferred?: string };
}

/**
 * The request's headers as a created resource keeps them (JSON in its `request_context` column):
 * all but the PSU's own identity, which has columns of its own; accept-fixes as a list.
 */
export type StoredRequestContext = Omit<RequestHeaders, 'psuId' | 'psuCorporateId' | 'acceptFixes' | 'notification'> & {
  readonly acceptFixes: readonly AcceptFixName[];
};

/** A refusal names the header in canonical spelling; the reason does not repeat the name. */
export type RequestHeadersCheck =
  { readonly ok: true; readonly value: RequestHeaders } | { readonly ok: false; readonly header: string; readonly reason: Localized };

const OWN_HEADERS = [
  'PSU-ID',
  'PSU-Corporate-ID',
  'TPP-Redirect-URI',
  'TPP-Nok-Redirect-URI',
  'Accept-Fix',
  'X-Accept-Fix',
  'TPP-Session-ID',
  'Biometric-Authentication',
  'TPP-Explicit-Authorisation-Preferred',
  'TPP-Redirect-Preferred',
] as const;

/** Every header {@link parseRequestHeaders} reads, in canonical spelling and checking order. */
export const REQUEST_HEADER_NAMES: readonly string[] = [...OWN_HEADERS, ...PSU_CONTEXT_HEADERS.map((field) => field.header)];

/**
 * Validates the optional request headers, reporting the first bad one in {@link REQUEST_HEADER_NAMES}
 * order. X-Request-ID is not among them: the caller checks it first so that refusals can echo it.
 */
export function parseRequestHeaders(header: (lowerCaseName: string) => string | undefined): RequestHeadersCheck {
  const first: { refusal?: { header: string; reason: Localized } } = {};
  // Once a header has failed, later ones are not even looked at, so the refusal stays the first.
  function read<T>(name: (typeof OWN_HEADERS)[number], check: (value: string) => Check<T>): T | undefined {
    const raw = first.refusal ? undefined : header(name.toLowerCase());
    if (raw === undefined) return undefined;
    const result = check(raw);
    if (result.ok) return result.value;
    first.refusal = { header: name, reason: result.reason };
    return undefined;
  }
  const psuId = read('PSU-ID', checkNorwegianIdentityNumber);
  const psuCorporateId = read('PSU-Corporate-ID', checkOrganisationNumber);
  const tppRedirectUri = read('TPP-Redirect-URI', checkRedirectUri);
  const tppNokRedirectUri = read('TPP-Nok-Redirect-URI', checkRedirectUri);
  const acceptFix = read('Accept-Fix', checkAcceptFix) ?? [];
  const xAcceptFix = read('X-Accept-Fix', checkAcceptFix) ?? [];
  const tppSessionId = read('TPP-Session-ID', checkTppSessionId);
  const biometricAuthentication = read('Biometric-Authentication', checkBooleanHeader) ?? true;
  const tppExplicitAuthorisationPreferred = read('TPP-Explicit-Authorisation-Preferred', checkBooleanHeader) ?? false;
  const tppRedirectPreferred = read('TPP-Redirect-Preferred', checkBooleanHeader);
  if (first.refusal) return { ok: false, ...first.refusal };
  const psuContext = checkPsuContext(header);
  if (!psuContext.ok) return psuContext;
  return {
    ok: true,
    value: {
      psuId,
      psuCorporateId,
      tppRedirectUri,
      tppNokRedirectUri,
      acceptFixes: new Set([...acceptFix, ...xAcceptFix]),
      tppSessionId,
      biometricAuthentication,
      tppExplicitAuthorisationPreferred,
      tppRedirectPreferred,
      psuContext: psuContext.value,
      notification: {
        ...(header('tpp-notification-uri') === undefined ? {} : { uri: header('tpp-notification-uri') }),
        ...(header('tpp-notification-content-preferred') === undefined
          ? {}
          : { contentPreferred: header('tpp-notification-content-preferred') }),
      },
    },
  };
}
