import { generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { ExternalRedirectAuthenticator } from '../../src/bank/psu-authenticator.port.js';

/** The fake IdP's address: never fetched, the tests play the PSU there with {@link FakeIdp.login}. */
export const FAKE_IDP_URL = 'https://idp.bank.example/authorize';
const ISSUER = 'https://idp.bank.example';

/** What the IdP signs (compact: base64url(JSON).base64url(Ed25519 signature)). */
export interface AssertionClaims {
  readonly iss: string;
  /** The return URL the login was started for. */
  readonly aud: string;
  /** The PSU's national identity number. */
  readonly sub: string;
  readonly state: string;
  /** Issued at, seconds since the epoch. */
  readonly iat: number;
}

export interface LoginOptions {
  /** The PSU who logs in at the IdP (default: the one the server asked for). */
  readonly psuId?: string;
  /** When the IdP issues the assertion (default: now). */
  readonly issuedAt?: Date;
  /** Signed by another key than the IdP's. */
  readonly foreignKey?: boolean;
}

/**
 * A BankID-style identity provider for the tests, and the bank's {@link ExternalRedirectAuthenticator}
 * in front of it: `startUrl` sends the browser to the IdP with the server's state and return URL;
 * {@link FakeIdp.login} plays the PSU there and answers the return URL with an Ed25519-signed
 * assertion; `verifyAssertion` checks signature, issuer and audience. Everyone is a customer: the
 * core banking decides what a PSU may do.
 */
export interface FakeIdp {
  readonly authenticator: ExternalRedirectAuthenticator;
  /** The PSU logs in at `startUrl` (the server's 303 to the IdP): the URL the IdP sends the browser back to. */
  login(startUrl: string, options?: LoginOptions): string;
  /** The assertions the authenticator was asked to verify, and its answers. */
  readonly verified: { assertion: string | undefined; ok: boolean }[];
}

export function createFakeIdp(): FakeIdp {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const foreign = generateKeyPairSync('ed25519').privateKey;
  const verified: FakeIdp['verified'] = [];

  function signed(claims: AssertionClaims, key: KeyObject): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${sign(null, Buffer.from(payload), key).toString('base64url')}`;
  }

  function claimsOf(assertion: string): AssertionClaims | undefined {
    const [payload, signature, ...rest] = assertion.split('.');
    if (payload === undefined || signature === undefined || rest.length > 0) return undefined;
    if (!verify(null, Buffer.from(payload), publicKey, Buffer.from(signature, 'base64url'))) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<AssertionClaims>;
      if (typeof claims.sub !== 'string' || typeof claims.state !== 'string' || typeof claims.iat !== 'number') return undefined;
      if (typeof claims.iss !== 'string' || typeof claims.aud !== 'string') return undefined;
      return claims as AssertionClaims;
    } catch {
      return undefined;
    }
  }

  const authenticator: ExternalRedirectAuthenticator = {
    kind: 'external-redirect',
    identityProviderOrigin: new URL(FAKE_IDP_URL).origin,
    isCustomer: async () => true,
    offersAppConfirmation: false,
    confirmedInApp: async () => false,
    async startUrl(_scope, start) {
      const url = new URL(FAKE_IDP_URL);
      url.searchParams.set('login_hint', start.psuId);
      url.searchParams.set('redirect_uri', start.returnUrl);
      url.searchParams.set('state', start.state);
      return url.toString();
    },
    async verifyAssertion(_scope, returned) {
      const assertion = returned.params['assertion'];
      const claims = assertion === undefined ? undefined : claimsOf(assertion);
      const ok = claims !== undefined && claims.iss === ISSUER && claims.aud === returned.returnUrl;
      verified.push({ assertion, ok });
      if (!claims || !ok) return { ok: false, reason: 'not a valid assertion of the IdP' };
      return { ok: true, psuId: claims.sub, state: claims.state, issuedAt: new Date(claims.iat * 1000) };
    },
  };

  return {
    authenticator,
    verified,
    login(startUrl, options = {}) {
      const start = new URL(startUrl);
      if (`${start.origin}${start.pathname}` !== FAKE_IDP_URL) throw new Error(`not the IdP: ${startUrl}`);
      const returnUrl = start.searchParams.get('redirect_uri') ?? '';
      const claims: AssertionClaims = {
        iss: ISSUER,
        aud: returnUrl,
        sub: options.psuId ?? start.searchParams.get('login_hint') ?? '',
        state: start.searchParams.get('state') ?? '',
        iat: Math.floor((options.issuedAt ?? new Date()).getTime() / 1000),
      };
      const back = new URL(returnUrl);
      back.searchParams.set('assertion', signed(claims, options.foreignKey ? foreign : privateKey));
      return back.toString();
    },
  };
}

/** An assertion changed after signing: another PSU written into its payload, the signature kept. */
export function tampered(returnUrl: string, psuId: string): string {
  const url = new URL(returnUrl);
  const [payload = '', signature = ''] = (url.searchParams.get('assertion') ?? '').split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as AssertionClaims;
  url.searchParams.set('assertion', `${Buffer.from(JSON.stringify({ ...claims, sub: psuId })).toString('base64url')}.${signature}`);
  return url.toString();
}
