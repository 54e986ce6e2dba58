import type { RequestingTpp } from './core-banking.port.js';

/**
 * The bank's authenticator behind the SCA pages (docs/design.md §6), in one of two shapes:
 * - {@link InPageCodeAuthenticator} (`in-page-code`): the PSU types a one-time code on our code
 *   page and the bank checks it. The sandbox's accepts one documented code.
 * - {@link ExternalRedirectAuthenticator} (`external-redirect`): BankID-style. After the identify
 *   page the PSU's browser goes to the bank's identity provider and comes back to our return route
 *   with a signed assertion, which the bank verifies.
 *
 * The PSU's own page of consents and payments (`/psu/consents`) logs the PSU in through the same
 * authenticator; it asks on no TPP's behalf, so its scope's `tppId` is '' outside the sandbox.
 *
 * A bank deploying nordic-xs2a implements one of them against its own authentication service.
 * Either way the server keeps the flow's rules: the PSU identified first, the wrong attempts
 * counted per authorisation and per PSU, the confirmation page after a successful step.
 */
export type PsuAuthenticator = InPageCodeAuthenticator | ExternalRedirectAuthenticator;

/** What both shapes answer. */
export interface PsuAuthenticatorBase {
  /** Whether the PSU-ID names a customer of the bank (the identify page refuses other numbers). */
  isCustomer(scope: RequestingTpp, psuId: string): Promise<boolean>;
  /**
   * Whether the bank's app (biometric, on the PSU's phone) is offered in place of the code or the
   * external login. False where the bank has no app.
   */
  readonly offersAppConfirmation: boolean;
  /**
   * Whether the PSU confirmed this authorisation in the bank's app; the bank's app service decides
   * (its push and biometric check), never the page's word for it.
   */
  confirmedInApp(scope: RequestingTpp, psuId: string, authorisationId: string): Promise<boolean>;
}

/** The one-time code typed on the server's own code page. */
export interface InPageCodeAuthenticator extends PsuAuthenticatorBase {
  readonly kind: 'in-page-code';
  /** Whether `code` is the PSU's valid one-time code now. */
  verifyOneTimeCode(scope: RequestingTpp, psuId: string, code: string): Promise<boolean>;
}

/** Where the server sends the PSU's browser to log in at the bank's identity provider. */
export interface ExternalLoginStart {
  /** The authorisation, or the visit of the PSU's own page: what the login is for (opaque to the IdP). */
  readonly authorisationId: string;
  /** The PSU identified on the identify page: the IdP may prefill or require it. */
  readonly psuId: string;
  /**
   * The server's return route for this authorisation (`{XS2A_PUBLIC_URL}/sca/{authorisationId}/return`),
   * or for the PSU's own page (`{XS2A_PUBLIC_URL}/psu/consents/return`).
   */
  readonly returnUrl: string;
  /**
   * Opaque, single-use, bound to this authorisation and the PSU's browser: the IdP must put it in
   * the signed assertion it sends back (as OpenID Connect's `state`/`nonce`).
   */
  readonly state: string;
}

/** The browser's return from the IdP: the return route's query parameters, as sent. */
export interface ExternalLoginReturn {
  readonly authorisationId: string;
  readonly returnUrl: string;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * A verified assertion: its signature is the IdP's and it is well formed. What it says is checked
 * by the server (the PSU, the state, the age), not here.
 */
export interface VerifiedAssertion {
  readonly ok: true;
  /** The PSU the IdP authenticated (national identity number). */
  readonly psuId: string;
  /** The `state` of {@link ExternalLoginStart} the assertion carries. */
  readonly state: string;
  /** When the IdP issued it (by the IdP's clock). */
  readonly issuedAt: Date;
}

/** The assertion is not the IdP's (bad signature, malformed, another audience, an error from the IdP). */
export interface RefusedAssertion {
  readonly ok: false;
  /** For the log only; never shown. */
  readonly reason: string;
}

/** BankID-style login at the bank's identity provider, by redirect. */
export interface ExternalRedirectAuthenticator extends PsuAuthenticatorBase {
  readonly kind: 'external-redirect';
  /**
   * The IdP's origin (`https://login.bank.example`): every {@link startUrl} is on it. The SCA
   * pages allow their forms to lead there (browsers apply CSP form-action to the redirect that
   * answers the identify form too), and nowhere else.
   */
  readonly identityProviderOrigin: string;
  /** The IdP's address for this login (the PSU's browser is sent there with a 303). */
  startUrl(scope: RequestingTpp, start: ExternalLoginStart): Promise<string>;
  /** Verifies what the browser brought back (signature, issuer, audience; an OIDC code exchange goes here). */
  verifyAssertion(scope: RequestingTpp, returned: ExternalLoginReturn): Promise<VerifiedAssertion | RefusedAssertion>;
}
