import { createHash, randomBytes } from 'node:crypto';
import { sameSecret } from '../../security/same-secret.js';
import { macOf } from '../../security/server-secret.js';
import { newTimeOrderedId } from '../../db/time-ordered-id.js';
import type { PsuAuthenticator } from '../../bank/psu-authenticator.port.js';
import { withTransaction, type Db, type DbOrTx } from '../../db/create-db.js';
import { localized, type Localized } from '../../domain/localized.js';
import { BANK_TIME_ZONE } from '../../domain/bank-calendar.js';
import { checkNorwegianIdentityNumber, maskPsuId } from '../../domain/norwegian-identity-number.js';
import { startAuthorisation, type AuthorisationStart, type StartedAuthorisation } from './authorisation-start.js';
import type { AuthorisationSubject, AuthorisationSubjects, Confirmation } from './authorisation-subject.js';
import { transitionAuthorisation, type ScaStatusChange } from './authorisation-transition.js';
import { authorisationRepository } from './authorisation.repository.js';
import type { Authorisation, AuthorisationPurpose, AuthorisationRequest } from './authorisation.model.js';
import { createBrowserBinding, type BrowserAccess, type FormAccess } from './browser-binding.js';
import type { BankPsu } from './psu-code-attempt.repository.js';
import { createPsuCodeLock, type CodeLockSettings } from './psu-code-lock.js';
import { isFinalScaStatus } from './sca-status.js';

export type { BrowserAccess, FormAccess } from './browser-binding.js';

export interface AuthorisationSettings {
  readonly publicUrl: string;
  /** How long a redirect link stays usable (XS2A_SCA_EXPIRY_SECONDS). */
  readonly expirySeconds: number;
  /** How long the one-time code of a PSU login may wait for `POST /v1/token` (XS2A_PSU_LOGIN_CODE_SECONDS). */
  readonly loginCodeSeconds: number;
  /** When wrong one-time codes lock a PSU's code step (XS2A_SCA_CODE_LOCK_*). */
  readonly codeLock: CodeLockSettings;
  /** Sandbox: each TPP's mock bank is a bank of its own, so its PSUs are counted apart. */
  readonly sandbox: boolean;
}

/** The outcome of a PSU's form post on the redirect pages. */
export type PageOutcome =
  /** Go on to the page of the authorisation's new status. */
  | { readonly kind: 'next'; readonly authorisation: Authorisation }
  /** Show the same step again with this message (a wrong code, a malformed PSU-ID; 429: the PSU's code step is locked). */
  | { readonly kind: 'retry'; readonly authorisation: Authorisation; readonly message: Localized; readonly status?: 429 }
  /**
   * Finished: finalised or failed. `loginCode` is the one-time code of a finished PSU login (only
   * known now; stored hashed); `rejectedByPsu` tells a rejection from a failure the page explains.
   */
  | { readonly kind: 'finished'; readonly authorisation: Authorisation; readonly loginCode?: string; readonly rejectedByPsu?: boolean }
  /** The post does not fit: unknown link, wrong CSRF token, or a step already done. */
  | { readonly kind: 'refused'; readonly status: 403 | 404 | 409; readonly message: Localized }
  /** The authorisation's pages belong to another browser (or this one lost its session cookie): nothing changed. */
  | { readonly kind: 'elsewhere' };

/** A browser's GET of an authorisation's page. */
export type PageVisit =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'elsewhere' }
  /** The page to show, with this browser's CSRF token; `newSession`: the cookie to set (the first visit). */
  | { readonly kind: 'page'; readonly authorisation: Authorisation; readonly csrf: string; readonly newSession?: string };

/** Who fails an authorisation whose link expired: the server's clock, not the PSU. */
const EXPIRY_ACTOR = { type: 'system', id: 'sca-link-expiry' } as const;

/** How many wrong one-time codes fail an authorisation (docs/design.md §6). */
export const MAX_WRONG_CODES = 3;

/** How old an external login's assertion may be when the browser brings it back (by the server's clock). */
export const ASSERTION_MAX_AGE_SECONDS = 300;

/** How far an assertion's issue time may be ahead of the server's clock (the IdP's clock runs a little fast). */
export const ASSERTION_CLOCK_SKEW_SECONDS = 30;

/** Reasons an authorisation fails, in the words the PSU and the TPP read. */
export const FAILURE_REASONS = {
  rejected: localized('The customer rejected it', 'Kunden avviste den'),
  wrongCodes: localized(`The one-time code was wrong ${MAX_WRONG_CODES} times`, `Engangskoden var feil ${MAX_WRONG_CODES} ganger`),
  failedLogins: localized(
    `The login at the bank was not accepted ${MAX_WRONG_CODES} times`,
    `Innloggingen i banken ble ikke godtatt ${MAX_WRONG_CODES} ganger`,
  ),
  expired: localized('The link expired before the approval was finished', 'Lenken utløp før godkjenningen var fullført'),
  otherPsu: localized(
    'Someone other than the customer the app named tried to approve it',
    'En annen enn kunden appen oppga, forsøkte å godkjenne den',
  ),
} as const;

export interface AuthorisationService {
  /** A new authorisation for the caller's transaction (the implicit start at payment creation uses `trx`). */
  create(db: DbOrTx, request: AuthorisationRequest): Promise<Authorisation>;
  /** `POST …/authorisations` of any resource: see {@link startAuthorisation}. */
  start(start: AuthorisationStart): Promise<StartedAuthorisation>;
  /** The authorisations of a resource for this TPP, oldest first. */
  list(tppId: string, purpose: AuthorisationPurpose, resourceId: string): Promise<Authorisation[]>;
  /**
   * Locks the authorisations of resources in the caller's transaction, before it locks the
   * resources themselves: the order the SCA flow takes them in, so the two cannot deadlock.
   */
  lockOf(trx: DbOrTx, purpose: AuthorisationPurpose, resourceIds: readonly string[]): Promise<void>;
  /** The PSUs who approved each of these resources (their finalised authorisations). */
  approversOf(tppId: string, purpose: AuthorisationPurpose, resourceIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Whether an authorisation of the resource is finalised, read in the caller's transaction (after it locked the resource). */
  anyFinalised(trx: DbOrTx, tppId: string, purpose: AuthorisationPurpose, resourceId: string): Promise<boolean>;
  /** One authorisation of a resource for this TPP (expired ones are failed first), or undefined. */
  find(tppId: string, purpose: AuthorisationPurpose, resourceId: string, authorisationId: string): Promise<Authorisation | undefined>;
  /** Fails the open authorisations of these resources whose links have expired; returns how many. */
  expireOverdueOf(purpose: AuthorisationPurpose, resourceIds: readonly string[]): Promise<number>;
  /** Fails every open authorisation whose link has expired; returns how many. */
  expireOverdue(): Promise<number>;
  /**
   * Ends the open authorisations of resources in the caller's transaction without touching the
   * resources (payments put into a signing basket, a basket or consent deleted, a payment cancelled by
   * its DELETE): their links stop working, saying why.
   */
  abandonOpen(
    trx: DbOrTx,
    purpose: AuthorisationPurpose,
    resourceIds: readonly string[],
    reason: Localized,
    actor: ScaStatusChange['actor'],
  ): Promise<void>;
  /** The authorisation behind a redirect link (expired ones are failed first). */
  open(id: string): Promise<Authorisation | undefined>;
  /**
   * A browser opens a redirect link: the first browser is bound to the authorisation (a new
   * session), that browser sees its page again, any other is told it is in progress elsewhere.
   */
  visit(id: string, access: BrowserAccess): Promise<PageVisit>;
  /** While the PSU's code step is locked (too many wrong codes across its authorisations): what the code page says. */
  codeLockNotice(authorisation: Authorisation): Promise<Localized | undefined>;
  /** Deletes counted one-time codes that can no longer lock anyone; answers how many. */
  purgeCodeAttempts(): Promise<number>;
  confirmation(authorisation: Authorisation): Promise<Confirmation>;
  /** What the PSU reads after a finalised approval. */
  approvedMessage(authorisation: Authorisation): Promise<Localized>;
  /** The identify page's post: the PSU-ID, and whether the app confirmation stood in for the code. */
  identify(id: string, access: FormAccess, psuId: string, method: 'code' | 'app'): Promise<PageOutcome>;
  enterCode(id: string, access: FormAccess, code: string): Promise<PageOutcome>;
  /** The authenticator's shape: the code page (`in-page-code`) or the bank's IdP by redirect (`external-redirect`). */
  readonly loginStep: PsuAuthenticator['kind'];
  /** The bank's login origin where the PSU leaves to log in (external-redirect), for the pages' form-action; else undefined. */
  readonly loginOrigin: string | undefined;
  /**
   * External login: the IdP address for an identified PSU in this browser (its state is bound to
   * the authorisation, the browser's session and the attempt).
   */
  externalLoginUrl(authorisation: Authorisation, access: BrowserAccess): Promise<string>;
  /**
   * External login: the browser is back from the IdP with `params` (the return route's query). The
   * assertion must be the IdP's, name the identified PSU, be fresh and carry this browser's state for
   * this attempt; anything else counts as a wrong code.
   */
  externalReturn(id: string, access: BrowserAccess, params: Readonly<Record<string, string>>): Promise<PageOutcome>;
  /** The confirmation page's post; `chosen`: the values of the page's choices the PSU ticked. */
  decide(id: string, access: FormAccess, decision: 'approve' | 'reject', chosen?: readonly string[]): Promise<PageOutcome>;
  /** Spends a PSU login's one-time code for this TPP: the PSU it identified, or undefined. */
  redeemLoginCode(tppId: string, code: string): Promise<{ psuId: string; loginId: string } | undefined>;
  /** The page link a PSU is sent to. */
  redirectLink(authorisation: Pick<Authorisation, 'id'>): string;
  registerSubject(purpose: keyof AuthorisationSubjects, subject: AuthorisationSubject): void;
}

/**
 * SCA by redirect: authorisations start received; the PSU's pages move them through
 * identification, the one-time code and the approval, each move through
 * {@link transitionAuthorisation}; the resource's owner (an {@link AuthorisationSubject}) decides
 * what approval and failure do to it.
 */
export function createAuthorisationService(
  db: Db,
  now: () => Date,
  authenticator: PsuAuthenticator,
  settings: AuthorisationSettings,
): AuthorisationService {
  const subjects: Partial<Record<keyof AuthorisationSubjects, AuthorisationSubject>> = {};
  const browsers = createBrowserBinding(db, now);
  const codeLock = createPsuCodeLock(db, now, settings.codeLock);
  /** The PSU whose wrong codes count together: per bank (in the sandbox, per TPP's mock bank). */
  const bankPsuOf = (authorisation: Authorisation): BankPsu => ({
    bankScope: settings.sandbox ? authorisation.tppId : '',
    psuId: authorisation.psuId ?? '',
  });

  function subjectOf(authorisation: Authorisation): AuthorisationSubject | undefined {
    if (authorisation.purpose === 'psu-login') return undefined;
    const subject = subjects[authorisation.purpose];
    if (!subject) throw new Error(`no subject registered for ${authorisation.purpose} authorisations`);
    return subject;
  }

  const psuActor = (authorisation: Authorisation) => ({ type: 'psu' as const, id: authorisation.psuId ?? 'unidentified' });

  /** Fails an open authorisation and applies what failure does to its resource, in one transaction. */
  async function fail(
    authorisation: Authorisation,
    reason: Localized,
    rejectsResource = true,
    actor: ScaStatusChange['actor'] = psuActor(authorisation),
  ): Promise<Authorisation> {
    const at = now().toISOString();
    return withTransaction(db, async (trx) => {
      const failed = await transitionAuthorisation(trx, authorisation, {
        to: 'failed',
        reason: JSON.stringify(reason),
        psuId: authorisation.psuId,
        actor,
        at,
      });
      const subject = subjectOf(authorisation);
      if (subject && rejectsResource) await subject.onFailure(trx, failed, reason, at, actor);
      return failed;
    });
  }

  /** Fails the authorisation if its link has expired; a concurrent change wins quietly. */
  async function expireIfDue(authorisation: Authorisation): Promise<Authorisation> {
    if (isFinalScaStatus(authorisation.scaStatus) || authorisation.expiresAt > now().toISOString()) return authorisation;
    try {
      return await fail(authorisation, FAILURE_REASONS.expired, true, EXPIRY_ACTOR);
    } catch {
      return (await authorisationRepository.find(db, authorisation.id)) ?? authorisation;
    }
  }

  /**
   * The open authorisation a form post addresses, after the browser (its session cookie), the
   * form's CSRF token (that browser's) and the step are checked.
   */
  async function formTarget(
    id: string,
    access: FormAccess,
    step: Authorisation['scaStatus'],
  ): Promise<{ authorisation: Authorisation } | Extract<PageOutcome, { kind: 'refused' | 'finished' | 'elsewhere' }>> {
    const found = await authorisationRepository.find(db, id);
    if (!found) return { kind: 'refused', status: 404, message: PAGE_REFUSALS.unknown };
    const browser = await browsers.check(id, access);
    if (browser === 'elsewhere') return { kind: 'elsewhere' };
    if (browser === 'csrf') return { kind: 'refused', status: 403, message: PAGE_REFUSALS.csrf };
    const authorisation = await expireIfDue(found);
    if (isFinalScaStatus(authorisation.scaStatus)) return { kind: 'finished', authorisation };
    if (authorisation.scaStatus !== step) return { kind: 'refused', status: 409, message: PAGE_REFUSALS.step };
    return { authorisation };
  }

  /** After the right code or the app confirmation: a login is done; anything else goes to its confirmation page. */
  async function authenticated(authorisation: Authorisation): Promise<PageOutcome> {
    const at = now().toISOString();
    const actor = psuActor(authorisation);
    if (authorisation.purpose === 'psu-login') {
      const code = randomBytes(32).toString('base64url');
      const finished = await withTransaction(db, async (trx) => {
        const done = await transitionAuthorisation(trx, authorisation, { to: 'psuAuthenticated', actor, at });
        const final = await transitionAuthorisation(trx, done, { to: 'finalised', actor, at });
        const stored = await authorisationRepository.update(trx, final.id, 'finalised', {
          loginCodeHash: sha256(code),
          loginCodeExpiresAt: new Date(now().getTime() + settings.loginCodeSeconds * 1000).toISOString(),
        });
        if (!stored) throw new Error('a finalised login changed within its own transaction');
        return final;
      });
      return { kind: 'finished', authorisation: finished, loginCode: code };
    }
    const selected = await withTransaction(db, async (trx) => {
      const done = await transitionAuthorisation(trx, authorisation, { to: 'psuAuthenticated', actor, at });
      // The confirmation in the bank's page is the only SCA method: chosen implicitly.
      return transitionAuthorisation(trx, done, { to: 'scaMethodSelected', actor, at });
    });
    return { kind: 'next', authorisation: selected };
  }

  /**
   * The step after identify, either shape: the attempt is counted first (and the PSU's lock claimed),
   * then `verify` decides; a wrong attempt counts towards {@link MAX_WRONG_CODES} and the PSU's lock.
   * `verify` gets the PSU and the attempt's number (0 for the first).
   */
  async function secondFactor(
    authorisation: Authorisation,
    failure: Localized,
    wrong: (left: number) => Localized,
    verify: (psuId: string, attempt: number) => Promise<boolean>,
  ): Promise<PageOutcome> {
    // The PSU's wrong codes across its authorisations: while they lock its code step, no code is checked.
    const psu = bankPsuOf(authorisation);
    const claim = await codeLock.claim(psu, authorisation.id);
    if ('lockedUntil' in claim) {
      return { kind: 'retry', status: 429, authorisation, message: codeLockedMessage(claim.lockedUntil, now()) };
    }
    // The attempt is counted before the code is checked, in one conditional update: codes posted
    // in parallel cannot get more than MAX_WRONG_CODES checks between them.
    const codeAttempts = await authorisationRepository.countCodeAttempt(db, authorisation.id, MAX_WRONG_CODES);
    if (codeAttempts === undefined) {
      await codeLock.release(claim.attemptId);
      const current = await authorisationRepository.find(db, authorisation.id);
      if (current && isFinalScaStatus(current.scaStatus)) return { kind: 'finished', authorisation: current };
      return { kind: 'refused', status: 409, message: PAGE_REFUSALS.step };
    }
    const counted = { ...authorisation, codeAttempts };
    const { right, lockedUntil } = await codeLock.check(psu, claim.attemptId, () => verify(psu.psuId, codeAttempts - 1));
    if (right) return authenticated(counted);
    if (codeAttempts >= MAX_WRONG_CODES) {
      return { kind: 'finished', authorisation: await fail(counted, failure) };
    }
    if (lockedUntil) return { kind: 'retry', status: 429, authorisation: counted, message: codeLockedMessage(lockedUntil, now()) };
    return { kind: 'retry', authorisation: counted, message: wrong(MAX_WRONG_CODES - codeAttempts) };
  }

  function returnUrlOf(id: string): string {
    return `${settings.publicUrl}/sca/${id}/return`;
  }

  const service: AuthorisationService = {
    async create(trx, request) {
      const at = now();
      return authorisationRepository.insert(trx, {
        id: newTimeOrderedId(),
        tppId: request.tpp.id,
        tppName: request.tpp.name,
        purpose: request.purpose,
        resourceId: request.resourceId,
        expectedPsuId: request.expectedPsuId,
        psuCorporateId: request.psuCorporateId,
        redirectUri: request.redirectUri,
        nokRedirectUri: request.nokRedirectUri,
        biometric: request.biometric,
        expiresAt: new Date(at.getTime() + settings.expirySeconds * 1000).toISOString(),
        createdAt: at.toISOString(),
      });
    },

    async start(start) {
      return startAuthorisation(db, service, start);
    },

    async list(tppId, purpose, resourceId) {
      return authorisationRepository.listFor(db, tppId, purpose, resourceId);
    },

    async lockOf(trx, purpose, resourceIds) {
      await authorisationRepository.lockOf(trx, purpose, resourceIds);
    },

    async approversOf(tppId, purpose, resourceIds) {
      return authorisationRepository.approversOf(db, tppId, purpose, resourceIds);
    },

    async anyFinalised(trx, tppId, purpose, resourceId) {
      return (await authorisationRepository.listFor(trx, tppId, purpose, resourceId)).some(
        (authorisation) => authorisation.scaStatus === 'finalised',
      );
    },

    async find(tppId, purpose, resourceId, authorisationId) {
      const found = await authorisationRepository.find(db, authorisationId);
      if (!found || found.tppId !== tppId || found.purpose !== purpose || found.resourceId !== resourceId) return undefined;
      return expireIfDue(found);
    },

    async expireOverdueOf(purpose, resourceIds) {
      const at = now().toISOString();
      let count = 0;
      for (const authorisation of await authorisationRepository.listOpenOf(db, purpose, resourceIds)) {
        if (authorisation.expiresAt <= at && (await expireIfDue(authorisation)).scaStatus === 'failed') count += 1;
      }
      return count;
    },

    async expireOverdue() {
      let count = 0;
      for (const authorisation of await authorisationRepository.listExpired(db, now().toISOString(), 500)) {
        const after = await expireIfDue(authorisation);
        if (after.scaStatus === 'failed') count += 1;
      }
      return count;
    },

    async abandonOpen(trx, purpose, resourceIds, reason, actor) {
      const at = now().toISOString();
      for (const authorisation of await authorisationRepository.listOpenOf(trx, purpose, resourceIds)) {
        await transitionAuthorisation(trx, authorisation, { to: 'failed', reason: JSON.stringify(reason), actor, at });
      }
    },

    async open(id) {
      const found = await authorisationRepository.find(db, id);
      return found && expireIfDue(found);
    },

    async visit(id, access) {
      const found = await authorisationRepository.find(db, id);
      if (!found) return { kind: 'unknown' };
      const entry = await browsers.enter(id, access);
      if (!entry.bound) return { kind: 'elsewhere' };
      return {
        kind: 'page',
        authorisation: await expireIfDue(found),
        csrf: entry.csrf,
        ...(entry.newSession === undefined ? {} : { newSession: entry.newSession }),
      };
    },

    async codeLockNotice(authorisation) {
      if (authorisation.scaStatus !== 'psuIdentified') return undefined;
      const until = await codeLock.lockedUntil(bankPsuOf(authorisation));
      return until && codeLockedMessage(until, now());
    },

    async purgeCodeAttempts() {
      return codeLock.purge();
    },

    async confirmation(authorisation) {
      const subject = subjectOf(authorisation);
      if (!subject) throw new Error('a PSU login has no confirmation page');
      return subject.confirmation(authorisation);
    },

    async approvedMessage(authorisation) {
      const subject = subjectOf(authorisation);
      if (!subject) throw new Error('a PSU login approves nothing');
      return subject.approvedMessage(authorisation);
    },

    async identify(id, access, psuIdText, method) {
      const target = await formTarget(id, access, 'received');
      if ('kind' in target) return target;
      const { authorisation } = target;
      const typed = psuIdText.trim();
      // The page shows the PSU the TPP named masked: left as shown (or empty), it stands for that PSU.
      const named = authorisation.expectedPsuId;
      const checked = checkNorwegianIdentityNumber(named !== undefined && (typed === '' || typed === maskPsuId(named)) ? named : typed);
      if (!checked.ok) return { kind: 'retry', authorisation, message: checked.reason };
      const psuId = checked.value.number;
      if (authorisation.expectedPsuId !== undefined && psuId !== authorisation.expectedPsuId) {
        return { kind: 'finished', authorisation: await fail({ ...authorisation, psuId }, FAILURE_REASONS.otherPsu) };
      }
      if (!(await authenticator.isCustomer({ tppId: authorisation.tppId }, psuId))) {
        return {
          kind: 'retry',
          authorisation,
          message: localized(
            'No customer of this bank has that national identity number',
            'Ingen kunde i banken har dette fødselsnummeret',
          ),
        };
      }
      if (method === 'app' && !(authorisation.biometric && authenticator.offersAppConfirmation)) {
        return { kind: 'refused', status: 409, message: PAGE_REFUSALS.noApp };
      }
      const at = now().toISOString();
      const identified = await withTransaction(db, (trx) =>
        transitionAuthorisation(trx, authorisation, { to: 'psuIdentified', psuId, actor: { type: 'psu', id: psuId }, at }),
      );
      if (method === 'code') return { kind: 'next', authorisation: identified };
      // The bank's app confirms the PSU on the phone (biometrics): it stands in for the one-time code.
      if (await authenticator.confirmedInApp({ tppId: authorisation.tppId }, psuId, authorisation.id)) return authenticated(identified);
      return { kind: 'retry', authorisation: identified, message: PAGE_REFUSALS.notConfirmedInApp };
    },

    async enterCode(id, access, code) {
      if (authenticator.kind !== 'in-page-code') return { kind: 'refused', status: 409, message: PAGE_REFUSALS.step };
      const verifyOneTimeCode = authenticator.verifyOneTimeCode.bind(authenticator);
      const target = await formTarget(id, access, 'psuIdentified');
      if ('kind' in target) return target;
      return secondFactor(target.authorisation, FAILURE_REASONS.wrongCodes, WRONG_CODE, (psuId) =>
        verifyOneTimeCode({ tppId: target.authorisation.tppId }, psuId, code.trim()),
      );
    },

    loginStep: authenticator.kind,
    loginOrigin: authenticator.kind === 'external-redirect' ? authenticator.identityProviderOrigin : undefined,

    async externalLoginUrl(authorisation, access) {
      if (authenticator.kind !== 'external-redirect') throw new Error('the code page has no external login');
      if (access.session === undefined || authorisation.psuId === undefined) throw new Error('an external login needs a browser and a PSU');
      const startUrl = await authenticator.startUrl(
        { tppId: authorisation.tppId },
        {
          authorisationId: authorisation.id,
          psuId: authorisation.psuId,
          returnUrl: returnUrlOf(authorisation.id),
          state: externalState(authorisation.id, authorisation.codeAttempts, access.session),
        },
      );
      // The pages' CSP lets their forms lead to the declared origin only: another one would be blocked by the browser.
      if (new URL(startUrl).origin !== authenticator.identityProviderOrigin) {
        throw new Error(`the authenticator's startUrl ${new URL(startUrl).origin} is not its identityProviderOrigin`);
      }
      return startUrl;
    },

    async externalReturn(id, access, params) {
      if (authenticator.kind !== 'external-redirect') return { kind: 'refused', status: 404, message: PAGE_REFUSALS.unknown };
      const external = authenticator;
      const found = await authorisationRepository.find(db, id);
      if (!found) return { kind: 'refused', status: 404, message: PAGE_REFUSALS.unknown };
      // Only the browser the pages belong to may bring a login back: nothing changes for another.
      const session = access.session;
      if (session === undefined || !(await browsers.owns(id, access))) return { kind: 'elsewhere' };
      const authorisation = await expireIfDue(found);
      if (isFinalScaStatus(authorisation.scaStatus)) return { kind: 'finished', authorisation };
      if (authorisation.scaStatus !== 'psuIdentified') return { kind: 'refused', status: 409, message: PAGE_REFUSALS.step };
      return secondFactor(authorisation, FAILURE_REASONS.failedLogins, LOGIN_REFUSED, async (psuId, attempt) => {
        const verified = await external.verifyAssertion(
          { tppId: authorisation.tppId },
          { authorisationId: id, returnUrl: returnUrlOf(id), params },
        );
        if (!verified.ok) return false;
        // The state of this attempt in this browser: an assertion of an earlier attempt (replayed),
        // of another authorisation or of another browser does not carry it.
        const age = now().getTime() - verified.issuedAt.getTime();
        return (
          sameSecret(verified.state, externalState(id, attempt, session)) &&
          verified.psuId === psuId &&
          Number.isFinite(age) &&
          age <= ASSERTION_MAX_AGE_SECONDS * 1000 &&
          age >= -ASSERTION_CLOCK_SKEW_SECONDS * 1000
        );
      });
    },

    async decide(id, access, decision, chosen = []) {
      const target = await formTarget(id, access, 'scaMethodSelected');
      if ('kind' in target) return target;
      const { authorisation } = target;
      if (decision === 'reject') {
        return { kind: 'finished', authorisation: await fail(authorisation, FAILURE_REASONS.rejected), rejectedByPsu: true };
      }
      const subject = subjectOf(authorisation);
      if (!subject || authorisation.psuId === undefined) throw new Error('an approval needs a subject and an identified PSU');
      const approval = await subject.prepareApproval(authorisation, authorisation.psuId, chosen);
      if (!approval.ok) {
        return { kind: 'finished', authorisation: await fail(authorisation, approval.reason, approval.rejectsResource) };
      }
      const at = now().toISOString();
      const actor = psuActor(authorisation);
      const afterCommit: { run?: void | (() => Promise<void>) } = {};
      try {
        const finalised = await withTransaction(db, async (trx) => {
          const started = await transitionAuthorisation(trx, authorisation, { to: 'started', actor, at });
          afterCommit.run = await approval.apply(trx, at);
          return transitionAuthorisation(trx, started, { to: 'finalised', actor, at });
        });
        if (afterCommit.run) await afterCommit.run();
        return { kind: 'finished', authorisation: finalised };
      } catch (error) {
        // The resource changed between the checks and the approval (the TPP cancelled it, another
        // approver was faster): the approval cannot apply, and the authorisation fails saying so.
        const current = await authorisationRepository.find(db, authorisation.id);
        if (!current || isFinalScaStatus(current.scaStatus)) throw error;
        return { kind: 'finished', authorisation: await fail(current, changedWhileApproved(authorisation.purpose), false) };
      }
    },

    async redeemLoginCode(tppId, code) {
      const login = await authorisationRepository.takeLoginCode(db, sha256(code));
      if (!login || login.tppId !== tppId || login.purpose !== 'psu-login' || login.psuId === undefined) return undefined;
      if ((login.loginCodeExpiresAt ?? '') <= now().toISOString()) return undefined;
      return { psuId: login.psuId, loginId: login.id };
    },

    redirectLink(authorisation) {
      return `${settings.publicUrl}/sca/${authorisation.id}`;
    },

    registerSubject(purpose, subject) {
      subjects[purpose] = subject;
    },
  };
  return service;
}

/** Why a form post is refused, for the error page (the pages' own refusals use them too). */
export const PAGE_REFUSALS = {
  unknown: localized(
    'This link is not known. Start again from the app you came from.',
    'Denne lenken er ukjent. Start på nytt fra appen du kom fra.',
  ),
  csrf: localized(
    'The form has expired or did not come from this page. Open the link again.',
    'Skjemaet er utløpt eller kom ikke fra denne siden. Åpne lenken på nytt.',
  ),
  step: localized(
    'This step is already done. Open the link again to continue.',
    'Dette steget er allerede utført. Åpne lenken på nytt for å fortsette.',
  ),
  noApp: localized('Confirmation in the app is not offered here.', 'Bekreftelse i appen tilbys ikke her.'),
  notConfirmedInApp: localized(
    'The bank app did not confirm it. Enter the one-time code instead.',
    'Bankappen bekreftet ikke. Skriv inn engangskoden i stedet.',
  ),
} as const;

/** Why an approval could not apply: what it approves changed meanwhile (another approver, the TPP's DELETE). */
function changedWhileApproved(purpose: AuthorisationPurpose): Localized {
  return purpose === 'consent'
    ? localized('The consent changed while it was being approved', 'Samtykket ble endret mens det ble godkjent')
    : localized('The payment changed while it was being approved', 'Betalingen ble endret mens den ble godkjent');
}

/** What the code page says after a wrong code. */
const WRONG_CODE = (left: number) =>
  localized(`Wrong code. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`, `Feil kode. ${left} forsøk igjen.`);

/** What the external login's page says after a refused login (or an assertion that does not fit). */
const LOGIN_REFUSED = (left: number) =>
  localized(
    `The login was not accepted. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
    `Innloggingen ble ikke godtatt. ${left} forsøk igjen.`,
  );

/**
 * The state an external login carries: a MAC of the authorisation and the attempt under the
 * browser's session (the cookie's secret, never stored here). Only that browser can have it, and
 * each counted attempt has a new one, so an assertion is good for one attempt only.
 */
function externalState(authorisationId: string, attempt: number, session: string): string {
  return macOf(session, 'sca-external-login', `${authorisationId}:${attempt}`);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What the code page says while the PSU's code step is locked: when (bank time, to the minute) to try again. */
export function codeLockedMessage(until: Date, now: Date): Localized {
  // Rounded up: at the minute shown the lock is over.
  const end = new Date(Math.ceil(until.getTime() / 60_000) * 60_000);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: BANK_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    end,
  );
  const day = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: BANK_TIME_ZONE }).format(date);
  const date = day(end) === day(now) ? undefined : day(end);
  return localized(
    `Too many wrong one-time codes. You can try again at ${time}${date ? ` on ${date}` : ''}.`,
    `For mange feil engangskoder. Du kan prøve igjen kl. ${time.replace(':', '.')}${date ? ` den ${date}` : ''}.`,
  );
}

/** A stored failure reason (JSON of both languages), for psuMessage and the outcome page. */
export function failureReasonOf(authorisation: Authorisation): Localized | undefined {
  if (authorisation.statusReason === undefined) return undefined;
  try {
    const parsed = JSON.parse(authorisation.statusReason) as Partial<Localized>;
    if (typeof parsed.en === 'string' && typeof parsed.nb === 'string') return localized(parsed.en, parsed.nb);
  } catch {
    // Written by an older version as plain text.
  }
  return localized(authorisation.statusReason);
}
