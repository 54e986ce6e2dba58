import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sameSecret } from '../../security/same-secret.js';
import { macOf } from '../../security/server-secret.js';
import type { CoreBanking, RequestingTpp } from '../../bank/core-banking.port.js';
import type { PsuAuthenticator } from '../../bank/psu-authenticator.port.js';
import { withTransaction, type Db } from '../../db/create-db.js';
import { localized, type Localized } from '../../domain/localized.js';
import { checkNorwegianIdentityNumber } from '../../domain/norwegian-identity-number.js';
import {
  ASSERTION_CLOCK_SKEW_SECONDS,
  ASSERTION_MAX_AGE_SECONDS,
  codeLockedMessage,
  MAX_WRONG_CODES,
} from '../authorisations/authorisation.service.js';
import { auditService } from '../audit/audit.service.js';
import { createPsuCodeLock, type CodeLockSettings } from '../authorisations/psu-code-lock.js';
import type { Consent } from '../consents/consent.model.js';
import type { ConsentsService, PsuOfBank, Revocation } from '../consents/consent.service.js';
import type { Payment } from '../payments/payment.model.js';
import type { PaymentStore } from '../payments/payment-store.js';
import type { TppService } from '../tpps/tpp.service.js';
import { psuOverviewSessionRepository, type PsuOverviewSession } from './psu-overview-session.repository.js';
import { psuPageLinkRepository } from './psu-page-link.repository.js';

/** How long a visit may take to log in. */
export const LOGIN_MINUTES = 10;
/** How long a logged-in visit lasts (from the login; the PSU logs in again after it). */
export const SESSION_MINUTES = 15;
/** How many of the PSU's payments the page lists (the newest). */
export const PAYMENTS_LISTED = 100;
/** How long a sandbox link to the page works (from when the TPP obtained it). */
export const PAGE_LINK_HOURS = 24;

export interface PsuOverviewSettings {
  readonly publicUrl: string;
  /**
   * Sandbox: each TPP's mock bank is a bank of its own, and its seeded PSU-IDs are every TPP's, so
   * a visit starts only from a link the TPP obtained with a signed request, on that TPP's bank.
   */
  readonly sandbox: boolean;
  readonly codeLock: CodeLockSettings;
}

export interface PsuOverviewDependencies {
  readonly db: Db;
  readonly now: () => Date;
  readonly authenticator: PsuAuthenticator;
  readonly coreBanking: CoreBanking;
  readonly consents: ConsentsService;
  readonly payments: PaymentStore;
  readonly tpps: Pick<TppService, 'namesOf'>;
}

/** A visit as the routes see it: the stored session and the raw cookie value it was found by. */
export interface Visit {
  readonly session: PsuOverviewSession;
  /** The cookie's value (the session's secret; only its hash is stored). */
  readonly secret: string;
  /** A cookie to set: the visit is new. */
  readonly newSecret?: string | undefined;
}

/** Where a visit stands: not identified, identified and waiting for its second factor, or logged in. */
export type VisitStep = 'identify' | 'second-factor' | 'logged-in';

/** A sandbox link to the page, as the TPP is given it. */
export interface PageLink {
  readonly href: string;
  readonly expiresAt: string;
}

/** What a login step did. */
export type LoginOutcome =
  /** Show the visit's page (303 to it): the next step, or the overview. */
  | { readonly kind: 'next'; readonly newSecret?: string | undefined }
  /** The external login: the browser goes to the bank's IdP. */
  | { readonly kind: 'external'; readonly url: string }
  /** The same step again, saying why; 429 while the PSU's code step is locked. */
  | { readonly kind: 'retry'; readonly message: Localized; readonly status: 400 | 429 }
  /** The visit is over (too many wrong codes): the PSU starts again (in the sandbox, in a new visit on the same bank: its cookie). */
  | { readonly kind: 'ended'; readonly message: Localized; readonly newSecret?: string | undefined };

/** A consent on the PSU's page, with the TPP's name. */
export interface ListedConsent {
  readonly consent: Consent;
  readonly tppName: string;
}

export interface ListedPayment {
  readonly payment: Payment;
  readonly tppName: string;
}

export interface Overview {
  readonly psuId: string;
  readonly consents: readonly ListedConsent[];
  readonly payments: readonly ListedPayment[];
}

export interface PsuOverviewService {
  /**
   * A page request: the browser's live visit, or a new one (its cookie to set). In the sandbox a
   * visit starts from a TPP's link only ({@link openLink}): without a live visit, undefined.
   */
  enter(secret: string | undefined): Promise<Visit | undefined>;
  /**
   * Sandbox: a TPP's link opened (its `access` token). The browser's live visit if it is on that
   * TPP's bank already, else a new visit on it (its cookie to set); undefined, and nothing changes,
   * for a token that is unknown or expired, and outside the sandbox.
   */
  openLink(secret: string | undefined, token: string): Promise<Visit | undefined>;
  /**
   * Sandbox: a new link to the page on the caller's sandbox bank, for the TPP to hand its test
   * PSUs; the audit log records it (never the link's secret).
   */
  issuePageLink(caller: { readonly tppId: string; readonly requestId?: string | undefined }): Promise<PageLink>;
  /** Deletes the visits that ended and the links that expired (a background job; starting either also does). */
  purgeEnded(): Promise<void>;
  /** The browser's live visit, or undefined (the IdP's return: a GET, which carries no token). */
  find(secret: string | undefined): Promise<Visit | undefined>;
  /** A form post: the browser's live visit if the form's CSRF token is that visit's; else undefined and nothing changes. */
  formVisit(secret: string | undefined, csrf: string): Promise<Visit | undefined>;
  /** The visit's step. */
  stepOf(visit: Visit): VisitStep;
  /** The shape of the bank's login: the code page, or the bank's IdP by redirect. */
  readonly loginStep: PsuAuthenticator['kind'];
  /** The IdP's origin (external login), for the page's form-action; else undefined. */
  readonly loginOrigin: string | undefined;
  /** The identify form: the PSU-ID, once per visit (the bank is the visit's). */
  identify(visit: Visit, psuIdText: string): Promise<LoginOutcome>;
  /** The code form (in-page code). */
  enterCode(visit: Visit, code: string): Promise<LoginOutcome>;
  /** The external login's address for an identified visit. */
  externalLoginUrl(visit: Visit): Promise<string>;
  /** Back from the bank's IdP with the return route's query. */
  externalReturn(visit: Visit, params: Readonly<Record<string, string>>): Promise<LoginOutcome>;
  /** The logged-in PSU's consents and payments. */
  overview(visit: Visit): Promise<Overview>;
  /** The logged-in PSU revokes one of its consents. */
  revoke(visit: Visit, consentId: string): Promise<Revocation>;
  /** Ends the visit; in the sandbox a new one starts on the same bank (its cookie to set). */
  logout(visit: Visit): Promise<{ readonly newSecret?: string | undefined }>;
}

const NOT_A_CUSTOMER = localized(
  'No customer of this bank has that national identity number',
  'Ingen kunde i banken har dette fødselsnummeret',
);
const WRONG_CODE = (left: number) =>
  localized(`Wrong code. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`, `Feil kode. ${left} forsøk igjen.`);
const LOGIN_REFUSED = (left: number) =>
  localized(
    `The login was not accepted. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
    `Innloggingen ble ikke godtatt. ${left} forsøk igjen.`,
  );
const TOO_MANY = localized(
  `The one-time code was wrong ${MAX_WRONG_CODES} times. Log in again.`,
  `Engangskoden var feil ${MAX_WRONG_CODES} ganger. Logg inn på nytt.`,
);

/**
 * The PSU's own page of consents and payments, as a bank's online bank offers it (docs/design.md
 * §2b): the PSU logs in through the bank's {@link PsuAuthenticator} (the one-time code or the
 * bank's IdP, with the wrong attempts counted per PSU as on the SCA pages), sees the consents it
 * gave to TPPs and the payments TPPs initiated for it, and revokes a consent.
 *
 * A visit is a browser's session cookie (only its SHA-256 stored) with that browser's CSRF token;
 * the cookie is replaced at login, so a cookie known before the login is worth nothing after it.
 * In the sandbox the visit's bank is fixed when it starts, by the TPP's link (only the link
 * token's SHA-256 stored), and never taken from a form.
 */
export function createPsuOverviewService(deps: PsuOverviewDependencies, settings: PsuOverviewSettings): PsuOverviewService {
  const { db, now, authenticator } = deps;
  const codeLock = createPsuCodeLock(db, now, settings.codeLock);
  const returnUrl = `${settings.publicUrl}/psu/consents/return`;
  const minutesFromNow = (minutes: number) => new Date(now().getTime() + minutes * 60_000).toISOString();

  /** The port's scope: the sandbox TPP whose mock bank it is; no TPP ('') outside the sandbox. */
  const scopeOf = (session: PsuOverviewSession): RequestingTpp => ({ tppId: session.bankScope });
  const psuOf = (session: PsuOverviewSession): PsuOfBank => {
    if (session.psuId === undefined || session.authenticatedAt === undefined) throw new Error('the visit is not logged in');
    return { psuId: session.psuId, tppId: settings.sandbox ? session.bankScope : undefined };
  };

  async function find(secret: string | undefined): Promise<PsuOverviewSession | undefined> {
    if (secret === undefined) return undefined;
    return psuOverviewSessionRepository.findLive(db, sha256(secret), now().toISOString());
  }

  /** A new visit on `bankScope` (the sandbox TPP whose bank it is; '' in production), with its cookie to set. */
  async function start(bankScope: string): Promise<Visit> {
    const at = now().toISOString();
    // Ended visits go when a new one starts: the table holds the visits of the last minutes only.
    await psuOverviewSessionRepository.purge(db, at);
    const newSecret = randomBytes(32).toString('base64url');
    const session = {
      id: randomUUID(),
      sessionHash: sha256(newSecret),
      csrfToken: randomBytes(24).toString('base64url'),
      bankScope,
      createdAt: at,
      expiresAt: minutesFromNow(LOGIN_MINUTES),
    };
    await psuOverviewSessionRepository.insert(db, session);
    return { session: { ...session, psuId: undefined, authenticatedAt: undefined, codeAttempts: 0 }, secret: newSecret, newSecret };
  }

  /** Ends a visit. In the sandbox the browser keeps its bank (it came by the TPP's link): a new visit on it, its cookie. */
  async function end(session: PsuOverviewSession): Promise<string | undefined> {
    await psuOverviewSessionRepository.remove(db, session.id);
    return settings.sandbox ? (await start(session.bankScope)).newSecret : undefined;
  }

  /** The second factor, either shape: counted first (the visit's and the PSU's), then `verify` decides. */
  async function secondFactor(
    visit: Visit,
    wrong: (left: number) => Localized,
    verify: (psuId: string, attempt: number) => Promise<boolean>,
  ): Promise<LoginOutcome> {
    const { session } = visit;
    if (session.psuId === undefined || session.authenticatedAt !== undefined) return { kind: 'next' };
    const psu = { bankScope: session.bankScope, psuId: session.psuId };
    const claim = await codeLock.claim(psu, session.id);
    if ('lockedUntil' in claim) return { kind: 'retry', status: 429, message: codeLockedMessage(claim.lockedUntil, now()) };
    const attempts = await psuOverviewSessionRepository.countCodeAttempt(db, session.id, session.psuId, MAX_WRONG_CODES);
    if (attempts === undefined) {
      await codeLock.release(claim.attemptId);
      return { kind: 'ended', message: TOO_MANY, newSecret: await end(session) };
    }
    const { right, lockedUntil } = await codeLock.check(psu, claim.attemptId, () => verify(psu.psuId, attempts - 1));
    if (right) {
      const newSecret = randomBytes(32).toString('base64url');
      const at = now().toISOString();
      if (
        !(await psuOverviewSessionRepository.authenticate(
          db,
          session.id,
          session.psuId,
          sha256(newSecret),
          at,
          minutesFromNow(SESSION_MINUTES),
        ))
      ) {
        return { kind: 'next' };
      }
      return { kind: 'next', newSecret };
    }
    if (attempts >= MAX_WRONG_CODES) {
      return { kind: 'ended', message: TOO_MANY, newSecret: await end(session) };
    }
    if (lockedUntil) return { kind: 'retry', status: 429, message: codeLockedMessage(lockedUntil, now()) };
    return { kind: 'retry', status: 400, message: wrong(MAX_WRONG_CODES - attempts) };
  }

  const service: PsuOverviewService = {
    async enter(secret) {
      const found = await find(secret);
      if (found && secret !== undefined) return { session: found, secret };
      return settings.sandbox ? undefined : start('');
    },

    async openLink(secret, token) {
      if (!settings.sandbox || token === '') return undefined;
      const tppId = await psuPageLinkRepository.findLiveTpp(db, sha256(token), now().toISOString());
      if (tppId === undefined) return undefined;
      const found = await find(secret);
      if (found && secret !== undefined && found.bankScope === tppId) return { session: found, secret };
      return start(tppId);
    },

    async issuePageLink(caller) {
      if (!settings.sandbox) throw new Error('links to the page are a sandbox feature');
      const at = now().toISOString();
      const token = randomBytes(32).toString('base64url');
      const tokenHash = sha256(token);
      const expiresAt = new Date(Date.parse(at) + PAGE_LINK_HOURS * 3_600_000).toISOString();
      await withTransaction(db, async (trx) => {
        // Expired links go when a new one is made: the table holds the links that still work.
        await psuPageLinkRepository.purge(trx, at);
        await psuPageLinkRepository.insert(trx, { tokenHash, tppId: caller.tppId, createdAt: at, expiresAt });
        // The link opens the sandbox bank's page to whoever has it: who made it, and when, is kept.
        await auditService.append(
          trx,
          {
            actor: { type: 'tpp', id: caller.tppId },
            requestId: caller.requestId,
            action: 'psu-page-link.issued',
            resource: { type: 'psu-page-link', id: tokenHash },
            details: { expiresAt },
          },
          at,
        );
      });
      return { href: `${settings.publicUrl}/psu/consents?access=${token}`, expiresAt };
    },

    async purgeEnded() {
      const at = now().toISOString();
      await psuOverviewSessionRepository.purge(db, at);
      await psuPageLinkRepository.purge(db, at);
    },

    async find(secret) {
      const found = await find(secret);
      return found && secret !== undefined ? { session: found, secret } : undefined;
    },

    async formVisit(secret, csrf) {
      const found = await find(secret);
      if (!found || secret === undefined || !sameSecret(found.csrfToken, csrf)) return undefined;
      return { session: found, secret };
    },

    stepOf(visit) {
      if (visit.session.authenticatedAt !== undefined) return 'logged-in';
      return visit.session.psuId === undefined ? 'identify' : 'second-factor';
    },

    loginStep: authenticator.kind,
    loginOrigin: authenticator.kind === 'external-redirect' ? authenticator.identityProviderOrigin : undefined,

    async identify(visit, psuIdText) {
      // Once per visit: another PSU-ID goes through "Start again" (a new visit, a new count of wrong codes).
      if (visit.session.psuId !== undefined || visit.session.authenticatedAt !== undefined) return { kind: 'next' };
      const checked = checkNorwegianIdentityNumber(psuIdText.trim());
      if (!checked.ok) return { kind: 'retry', status: 400, message: checked.reason };
      const psuId = checked.value.number;
      if (!(await authenticator.isCustomer(scopeOf(visit.session), psuId))) return { kind: 'retry', status: 400, message: NOT_A_CUSTOMER };
      if (!(await psuOverviewSessionRepository.identify(db, visit.session.id, psuId))) return { kind: 'next' };
      if (authenticator.kind === 'in-page-code') return { kind: 'next' };
      const identified = { ...visit, session: { ...visit.session, psuId } };
      return { kind: 'external', url: await service.externalLoginUrl(identified) };
    },

    async enterCode(visit, code) {
      if (authenticator.kind !== 'in-page-code') return { kind: 'next' };
      const verifyOneTimeCode = authenticator.verifyOneTimeCode.bind(authenticator);
      return secondFactor(visit, WRONG_CODE, (psuId) => verifyOneTimeCode(scopeOf(visit.session), psuId, code.trim()));
    },

    async externalLoginUrl(visit) {
      if (authenticator.kind !== 'external-redirect') throw new Error('the code page has no external login');
      const { session } = visit;
      if (session.psuId === undefined) throw new Error('an external login needs an identified PSU');
      const url = await authenticator.startUrl(scopeOf(session), {
        authorisationId: session.id,
        psuId: session.psuId,
        returnUrl,
        state: externalState(session.id, session.codeAttempts, visit.secret),
      });
      // The page's CSP lets its forms lead to the declared origin only: another one would be blocked by the browser.
      if (new URL(url).origin !== authenticator.identityProviderOrigin) {
        throw new Error(`the authenticator's startUrl ${new URL(url).origin} is not its identityProviderOrigin`);
      }
      return url;
    },

    async externalReturn(visit, params) {
      if (authenticator.kind !== 'external-redirect') return { kind: 'next' };
      const external = authenticator;
      const { session } = visit;
      return secondFactor(visit, LOGIN_REFUSED, async (psuId, attempt) => {
        const verified = await external.verifyAssertion(scopeOf(session), { authorisationId: session.id, returnUrl, params });
        if (!verified.ok) return false;
        // This visit's state for this attempt, the identified PSU, and a fresh assertion: an
        // assertion of an earlier attempt, of another browser or of another PSU does not do.
        const age = now().getTime() - verified.issuedAt.getTime();
        return (
          sameSecret(verified.state, externalState(session.id, attempt, visit.secret)) &&
          verified.psuId === psuId &&
          Number.isFinite(age) &&
          age <= ASSERTION_MAX_AGE_SECONDS * 1000 &&
          age >= -ASSERTION_CLOCK_SKEW_SECONDS * 1000
        );
      });
    },

    async overview(visit) {
      const psu = psuOf(visit.session);
      const consents = await deps.consents.listGivenBy(psu);
      const accounts = await deps.coreBanking.accountsOf(scopeOf(visit.session), psu.psuId);
      const payments = await deps.payments.listForPsu(
        db,
        psu.tppId,
        { psuId: psu.psuId, debtorAccountIds: accounts.map((account) => account.id) },
        PAYMENTS_LISTED,
      );
      const names = await deps.tpps.namesOf([...consents.map((consent) => consent.tppId), ...payments.map((payment) => payment.tppId)]);
      const nameOf = (tppId: string) => names.get(tppId) ?? tppId;
      return {
        psuId: psu.psuId,
        consents: consents.map((consent) => ({ consent, tppName: nameOf(consent.tppId) })),
        payments: payments.map((payment) => ({ payment, tppName: nameOf(payment.tppId) })),
      };
    },

    async revoke(visit, consentId) {
      return deps.consents.revokeByPsu(psuOf(visit.session), consentId);
    },

    async logout(visit) {
      return { newSecret: await end(visit.session) };
    },
  };
  return service;
}

/** The state an external login carries: a MAC of the visit and the attempt under the browser's cookie secret. */
function externalState(sessionId: string, attempt: number, secret: string): string {
  return macOf(secret, 'psu-overview-login', `${sessionId}:${attempt}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
