/**
 * SCA by redirect as the PSU's pages drive it, through createAuthorisationService on
 * each database of DIALECTS, with a fake PsuAuthenticator and fake AuthorisationSubjects:
 * - identify: a malformed or unknown PSU-ID asks again and changes nothing; another PSU than the
 *   one the TPP named fails it (and the subject's onFailure runs); the app confirmation only when
 *   the TPP asked for biometrics and the bank offers it;
 * - the one-time code: wrong codes count up and the third fails it; the right one selects the method;
 * - the decision: a rejection fails it; an approval the subject accepts is applied in the
 *   finalising transaction; one it refuses fails it, rejecting the resource or not;
 * - a wrong CSRF token is refused 403 and a post for another step 409, changing nothing;
 * - the pages belong to the first browser that visits them: another browser's visits and posts
 *   are `elsewhere`, changing nothing; the masked PSU-ID stands for the PSU the TPP named;
 * - wrong codes are counted per PSU across its authorisations: five within an hour lock its code
 *   step for 15 minutes (parallel posts included; in the sandbox per TPP's mock bank);
 * - expired links fail on open, find, a form post and the sweep, by a movable clock;
 * - a PSU login ends finalised with a one-time code that works once, for the same TPP, for 60 s.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestingTpp } from '../../src/bank/core-banking.port.js';
import type { InPageCodeAuthenticator } from '../../src/bank/psu-authenticator.port.js';
import type { DbOrTx } from '../../src/db/create-db.js';
import { localized, type Localized } from '../../src/domain/localized.js';
import { checkNorwegianIdentityNumber } from '../../src/domain/norwegian-identity-number.js';
import { auditRepository } from '../../src/modules/audit/audit.repository.js';
import type { Approval, AuditActor, AuthorisationSubject, Confirmation } from '../../src/modules/authorisations/authorisation-subject.js';
import { authorisationRepository } from '../../src/modules/authorisations/authorisation.repository.js';
import type { Authorisation, AuthorisationPurpose } from '../../src/modules/authorisations/authorisation.model.js';
import {
  createAuthorisationService,
  FAILURE_REASONS,
  failureReasonOf,
  MAX_WRONG_CODES,
  sha256,
  type AuthorisationService,
  type FormAccess,
  type PageOutcome,
} from '../../src/modules/authorisations/authorisation.service.js';
import { DEFAULT_CODE_LOCK, type CodeLockSettings } from '../../src/modules/authorisations/psu-code-lock.js';
import type { AuthorisationRequest } from '../../src/modules/authorisations/authorisation.model.js';
import type { ScaStatus } from '../../src/modules/authorisations/sca-status.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const TPP = { id: 'PSDNO-FSA-123456789', name: 'Budget App AS' };
const OTHER_TPP = { id: 'PSDSE-FINA-44059', name: 'Other TPP AB' };
const PSU = '13039319955';
const OTHER_PSU = '01019010046';
const NOT_A_CUSTOMER = '01019010127';
const RIGHT_CODE = '123456';
const T0 = '2026-11-20T08:00:00.000Z';
const EXPIRY_SECONDS = 600;
/** What the login-code tests below count from (the server's default is XS2A_PSU_LOGIN_CODE_SECONDS, 300). */
const LOGIN_CODE_SECONDS = 60;
const PUBLIC_URL = 'https://bank.example/xs2a';

const CONFIRMATION: Confirmation = {
  heading: localized('Approve this payment', 'Godkjenn denne betalingen'),
  lines: [{ label: localized('Amount'), value: localized('NOK 1.00') }],
};

/** The bank's authenticator: two customers, one right code, app confirmation as configured. */
class FakeAuthenticator implements InPageCodeAuthenticator {
  readonly kind = 'in-page-code' as const;
  readonly customers = new Set([PSU, OTHER_PSU]);
  readonly isCustomerCalls: [RequestingTpp, string][] = [];
  readonly codeCalls: [RequestingTpp, string, string][] = [];
  /** What the bank's app answers when asked whether the PSU confirmed. */
  appConfirms = true;
  constructor(readonly offersAppConfirmation: boolean) {}

  async confirmedInApp(): Promise<boolean> {
    return this.appConfirms;
  }

  async isCustomer(scope: RequestingTpp, psuId: string): Promise<boolean> {
    this.isCustomerCalls.push([scope, psuId]);
    return this.customers.has(psuId);
  }

  async verifyOneTimeCode(scope: RequestingTpp, psuId: string, code: string): Promise<boolean> {
    this.codeCalls.push([scope, psuId, code]);
    // An asynchronous answer, as a real authenticator's would be.
    await new Promise((resolve) => setTimeout(resolve, 1));
    return code === RIGHT_CODE;
  }
}

interface Applied {
  readonly inTransaction: boolean;
  /** The authorisation's status as the applying transaction sees it. */
  readonly statusInside: ScaStatus | undefined;
  readonly at: string;
}

interface Failure {
  readonly inTransaction: boolean;
  readonly authorisation: Authorisation;
  /** The authorisation's status as the failing transaction sees it. */
  readonly statusInside: ScaStatus | undefined;
  readonly reason: Localized;
  readonly at: string;
  readonly actor: AuditActor;
}

/** What a payment module does on approval and failure, recorded. */
class FakeSubject implements AuthorisationSubject {
  readonly prepared: { authorisation: Authorisation; psuId: string }[] = [];
  readonly applied: Applied[] = [];
  readonly failures: Failure[] = [];
  /** What prepareApproval answers: an approval that applies (and records), or a refusal. */
  answer: { ok: true; fails?: boolean } | { ok: false; reason: Localized; rejectsResource: boolean } = { ok: true };

  async confirmation(): Promise<Confirmation> {
    return CONFIRMATION;
  }

  async prepareApproval(authorisation: Authorisation, psuId: string): Promise<Approval> {
    this.prepared.push({ authorisation, psuId });
    const answer = this.answer;
    if (!answer.ok) return { ok: false, reason: answer.reason, rejectsResource: answer.rejectsResource };
    return {
      ok: true,
      apply: async (trx: DbOrTx, at: string) => {
        this.applied.push({
          inTransaction: trx.isTransaction,
          statusInside: (await authorisationRepository.find(trx, authorisation.id))?.scaStatus,
          at,
        });
        // The effect on the resource, in the approving transaction.
        await auditRepository.append(
          trx,
          { actor: { type: 'psu', id: psuId }, action: 'test.applied', resource: { type: 'test', id: authorisation.id } },
          at,
        );
        if (answer.fails) throw new Error('the payment changed meanwhile');
      },
    };
  }

  async approvedMessage(authorisation: Authorisation): Promise<Localized> {
    return localized(`Approved ${authorisation.id}`);
  }

  async onFailure(trx: DbOrTx, authorisation: Authorisation, reason: Localized, at: string, actor: AuditActor): Promise<void> {
    this.failures.push({
      actor,
      inTransaction: trx.isTransaction,
      authorisation,
      statusInside: (await authorisationRepository.find(trx, authorisation.id))?.scaStatus,
      reason,
      at,
    });
  }
}

interface Harness {
  readonly service: AuthorisationService;
  readonly authenticator: FakeAuthenticator;
  readonly payments: FakeSubject;
  readonly cancellations: FakeSubject;
  /** Moves the clock on. */
  advance(seconds: number): void;
  nowIso(): string;
}

describe.each(DIALECTS)('authorisation service on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database?.dispose());

  /**
   * A service on a movable clock. The PSU's wrong codes count across all tests of the database (at
   * the same clock times): the lock is out of reach unless a test asks for one (`codeLock`).
   */
  function harness(options: { offersApp?: boolean; start?: string; codeLock?: CodeLockSettings; sandbox?: boolean } = {}): Harness {
    let current = new Date(options.start ?? T0).getTime();
    const authenticator = new FakeAuthenticator(options.offersApp ?? true);
    const service = createAuthorisationService(database.db, () => new Date(current), authenticator, {
      publicUrl: PUBLIC_URL,
      expirySeconds: EXPIRY_SECONDS,
      loginCodeSeconds: LOGIN_CODE_SECONDS,
      codeLock: options.codeLock ?? { ...DEFAULT_CODE_LOCK, attempts: 100 },
      sandbox: options.sandbox ?? false,
    });
    const payments = new FakeSubject();
    const cancellations = new FakeSubject();
    service.registerSubject('payment', payments);
    service.registerSubject('payment-cancellation', cancellations);
    return {
      service,
      authenticator,
      payments,
      cancellations,
      advance: (seconds) => {
        current += seconds * 1000;
      },
      nowIso: () => new Date(current).toISOString(),
    };
  }

  /** The PSU's browser of each authorisation: its session and CSRF token, from the first visit. */
  const browsers = new Map<string, FormAccess>();

  /** A new authorisation whose link the PSU's browser has opened. */
  async function create(h: Harness, overrides: Partial<AuthorisationRequest> = {}): Promise<Authorisation> {
    const purpose: AuthorisationPurpose = overrides.purpose ?? 'payment';
    const authorisation = await h.service.create(database.db, {
      tpp: TPP,
      purpose,
      resourceId: purpose === 'psu-login' ? undefined : randomUUID(),
      redirectUri: 'https://tpp.example/ok',
      biometric: false,
      ...overrides,
    });
    const visit = await h.service.visit(authorisation.id, { session: undefined });
    if (visit.kind !== 'page' || visit.newSession === undefined) throw new Error(`the first visit was not bound: ${visit.kind}`);
    browsers.set(authorisation.id, { session: visit.newSession, csrf: visit.csrf });
    return authorisation;
  }

  /** What the PSU's browser posts with a form of this authorisation's pages. */
  function pass(authorisation: Pick<Authorisation, 'id'>): FormAccess {
    const access = browsers.get(authorisation.id);
    if (!access) throw new Error(`no browser opened ${authorisation.id}`);
    return access;
  }

  const stored = async (authorisation: Pick<Authorisation, 'id'>) => {
    const found = await authorisationRepository.find(database.db, authorisation.id);
    if (!found) throw new Error(`authorisation ${authorisation.id} not found`);
    return found;
  };
  const moves = async (authorisation: Pick<Authorisation, 'id'>) =>
    (await auditRepository.listForResource(database.db, 'authorisation', authorisation.id)).map(
      (entry) => `${String(entry.details?.['from'])}→${String(entry.details?.['to'])}`,
    );

  function expectKind<K extends PageOutcome['kind']>(outcome: PageOutcome, kind: K): Extract<PageOutcome, { kind: K }> {
    expect(outcome.kind).toBe(kind);
    return outcome as Extract<PageOutcome, { kind: K }>;
  }

  /** Walks an authorisation to psuIdentified or scaMethodSelected through the pages. */
  async function walk(h: Harness, authorisation: Authorisation, to: 'psuIdentified' | 'scaMethodSelected'): Promise<Authorisation> {
    const identified = expectKind(await h.service.identify(authorisation.id, pass(authorisation), PSU, 'code'), 'next');
    if (to === 'psuIdentified') return identified.authorisation;
    return expectKind(await h.service.enterCode(authorisation.id, pass(authorisation), RIGHT_CODE), 'next').authorisation;
  }

  describe('create', () => {
    it('starts received, expiring expirySeconds later, linked under the public URL; its first browser gets a fresh CSRF token', async () => {
      const h = harness();
      const first = await create(h, { expectedPsuId: PSU, biometric: true, nokRedirectUri: 'https://tpp.example/nok' });
      const second = await create(h);
      expect(first).toMatchObject({
        tppId: TPP.id,
        tppName: TPP.name,
        purpose: 'payment',
        scaStatus: 'received',
        expectedPsuId: PSU,
        biometric: true,
        redirectUri: 'https://tpp.example/ok',
        nokRedirectUri: 'https://tpp.example/nok',
        codeAttempts: 0,
        createdAt: T0,
        expiresAt: '2026-11-20T08:10:00.000Z',
      });
      expect(await stored(first)).toEqual(first);
      expect(pass(first).csrf).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(pass(second).csrf).not.toBe(pass(first).csrf);
      expect(pass(first).session).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second.id).not.toBe(first.id);
      expect(h.service.redirectLink(first)).toBe(`${PUBLIC_URL}/sca/${first.id}`);
    });

    it('lists a resource’s authorisations for its TPP, oldest first', async () => {
      const h = harness();
      const resourceId = randomUUID();
      const first = await create(h, { resourceId });
      h.advance(1);
      const second = await create(h, { resourceId });
      expect((await h.service.list(TPP.id, 'payment', resourceId)).map((entry) => entry.id)).toEqual([first.id, second.id]);
      expect(await h.service.list(OTHER_TPP.id, 'payment', resourceId)).toEqual([]);
    });
  });

  describe('identify', () => {
    it.each(['12345', '13039319956', '', 'abcdefghijk'])('asks again for a malformed PSU-ID "%s", changing nothing', async (typed) => {
      const h = harness();
      const authorisation = await create(h);
      const checked = checkNorwegianIdentityNumber(typed);
      expect(checked.ok).toBe(false);
      const outcome = expectKind(await h.service.identify(authorisation.id, pass(authorisation), typed, 'code'), 'retry');
      expect(outcome.message).toEqual(!checked.ok && checked.reason);
      expect(outcome.authorisation).toEqual(authorisation);
      expect(await stored(authorisation)).toEqual(authorisation);
      expect(await moves(authorisation)).toEqual([]);
      expect(h.authenticator.isCustomerCalls).toEqual([]);
    });

    it('asks again for a well-formed number that is no customer of the bank, changing nothing', async () => {
      const h = harness();
      const authorisation = await create(h);
      const outcome = expectKind(await h.service.identify(authorisation.id, pass(authorisation), NOT_A_CUSTOMER, 'code'), 'retry');
      expect(outcome.message).toEqual(
        localized('No customer of this bank has that national identity number', 'Ingen kunde i banken har dette fødselsnummeret'),
      );
      expect(h.authenticator.isCustomerCalls).toEqual([[{ tppId: TPP.id }, NOT_A_CUSTOMER]]);
      expect(await stored(authorisation)).toEqual(authorisation);
      expect(await moves(authorisation)).toEqual([]);
    });

    it('identifies a customer (surrounding spaces ignored) and goes on to the code', async () => {
      const h = harness();
      const authorisation = await create(h);
      h.advance(5);
      const outcome = expectKind(await h.service.identify(authorisation.id, pass(authorisation), ` ${PSU} `, 'code'), 'next');
      expect(outcome.authorisation).toMatchObject({ scaStatus: 'psuIdentified', psuId: PSU, statusChangedAt: '2026-11-20T08:00:05.000Z' });
      expect(await stored(authorisation)).toEqual(outcome.authorisation);
      expect(await moves(authorisation)).toEqual(['received→psuIdentified']);
      expect(h.authenticator.codeCalls).toEqual([]);
    });

    it('goes on when the PSU is the one the TPP named', async () => {
      const h = harness();
      const authorisation = await create(h, { expectedPsuId: PSU });
      expectKind(await h.service.identify(authorisation.id, pass(authorisation), PSU, 'code'), 'next');
      expect((await stored(authorisation)).scaStatus).toBe('psuIdentified');
    });

    it('fails it when another PSU than the one the TPP named identifies, and the subject rejects the resource', async () => {
      const h = harness();
      const authorisation = await create(h, { expectedPsuId: PSU });
      const outcome = expectKind(await h.service.identify(authorisation.id, pass(authorisation), OTHER_PSU, 'code'), 'finished');
      expect(outcome.authorisation.scaStatus).toBe('failed');
      expect(outcome.rejectedByPsu).toBeUndefined();
      const after = await stored(authorisation);
      expect(after.scaStatus).toBe('failed');
      expect(failureReasonOf(after)).toEqual(FAILURE_REASONS.otherPsu);
      expect(await moves(authorisation)).toEqual(['received→failed']);
      const audit = await auditRepository.listForResource(database.db, 'authorisation', authorisation.id);
      expect(audit[0]!.actor).toEqual({ type: 'psu', id: OTHER_PSU });
      expect(h.payments.failures).toHaveLength(1);
      expect(h.payments.failures[0]).toMatchObject({
        inTransaction: true,
        statusInside: 'failed',
        reason: FAILURE_REASONS.otherPsu,
        at: T0,
        actor: { type: 'psu', id: OTHER_PSU },
      });
      expect(h.payments.failures[0]!.authorisation.id).toBe(authorisation.id);
    });

    it('confirms in the app instead of the code when the TPP asked for biometrics and the bank offers it', async () => {
      const h = harness({ offersApp: true });
      const authorisation = await create(h, { biometric: true });
      const outcome = expectKind(await h.service.identify(authorisation.id, pass(authorisation), PSU, 'app'), 'next');
      expect(outcome.authorisation).toMatchObject({ scaStatus: 'scaMethodSelected', psuId: PSU });
      expect(await stored(authorisation)).toEqual(outcome.authorisation);
      expect(await moves(authorisation)).toEqual([
        'received→psuIdentified',
        'psuIdentified→psuAuthenticated',
        'psuAuthenticated→scaMethodSelected',
      ]);
      expect(h.authenticator.codeCalls).toEqual([]);
    });

    it('asks for the code when the bank app does not confirm: identified, no further', async () => {
      const h = harness({ offersApp: true });
      h.authenticator.appConfirms = false;
      const authorisation = await create(h, { biometric: true });
      const outcome = expectKind(await h.service.identify(authorisation.id, pass(authorisation), PSU, 'app'), 'retry');
      expect(outcome.message.en).toContain('Enter the one-time code');
      expect(await stored(authorisation)).toMatchObject({ scaStatus: 'psuIdentified', psuId: PSU });
      expect(await moves(authorisation)).toEqual(['received→psuIdentified']);
    });

    it.each([
      { biometric: false, offersApp: true },
      { biometric: true, offersApp: false },
      { biometric: false, offersApp: false },
    ])(
      'refuses the app confirmation (409) when biometric is $biometric and the bank offers the app: $offersApp',
      async ({ biometric, offersApp }) => {
        const h = harness({ offersApp });
        const authorisation = await create(h, { biometric });
        const outcome = expectKind(await h.service.identify(authorisation.id, pass(authorisation), PSU, 'app'), 'refused');
        expect(outcome.status).toBe(409);
        expect(outcome.message).toEqual(localized('Confirmation in the app is not offered here.', 'Bekreftelse i appen tilbys ikke her.'));
        expect(await stored(authorisation)).toEqual(authorisation);
        expect(await moves(authorisation)).toEqual([]);
      },
    );
  });

  describe('the one-time code', () => {
    it('counts wrong codes up, saying how many attempts are left, without leaving the step', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'psuIdentified');

      const first = expectKind(await h.service.enterCode(authorisation.id, pass(authorisation), '000000'), 'retry');
      expect(first.message).toEqual(localized('Wrong code. 2 attempts left.', 'Feil kode. 2 forsøk igjen.'));
      expect(first.authorisation.codeAttempts).toBe(1);
      expect(await stored(authorisation)).toMatchObject({ scaStatus: 'psuIdentified', codeAttempts: 1 });

      const second = expectKind(await h.service.enterCode(authorisation.id, pass(authorisation), '111111'), 'retry');
      expect(second.message).toEqual(localized('Wrong code. 1 attempt left.', 'Feil kode. 1 forsøk igjen.'));
      expect(await stored(authorisation)).toMatchObject({ scaStatus: 'psuIdentified', codeAttempts: 2 });

      expect(await moves(authorisation)).toEqual(['received→psuIdentified']);
      expect(h.payments.failures).toEqual([]);
      expect(h.authenticator.codeCalls).toEqual([
        [{ tppId: TPP.id }, PSU, '000000'],
        [{ tppId: TPP.id }, PSU, '111111'],
      ]);
    });

    it(`fails it at the ${MAX_WRONG_CODES}rd wrong code and rejects the resource`, async () => {
      expect(MAX_WRONG_CODES).toBe(3);
      const h = harness();
      const authorisation = await walk(h, await create(h), 'psuIdentified');
      for (let i = 1; i < MAX_WRONG_CODES; i += 1) {
        expectKind(await h.service.enterCode(authorisation.id, pass(authorisation), '000000'), 'retry');
      }
      const last = expectKind(await h.service.enterCode(authorisation.id, pass(authorisation), '000000'), 'finished');
      expect(last.authorisation.scaStatus).toBe('failed');
      const after = await stored(authorisation);
      expect(after.scaStatus).toBe('failed');
      expect(failureReasonOf(after)).toEqual(localized('The one-time code was wrong 3 times', 'Engangskoden var feil 3 ganger'));
      expect(await moves(authorisation)).toEqual(['received→psuIdentified', 'psuIdentified→failed']);
      expect(h.payments.failures.map((failure) => failure.reason)).toEqual([FAILURE_REASONS.wrongCodes]);
    });

    it('counts every code it checks, even when several are posted at once: parallel posts buy no extra guesses', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'psuIdentified');
      await Promise.allSettled(
        ['000001', '000002', '000003', '000004', '000005'].map((code) => h.service.enterCode(authorisation.id, pass(authorisation), code)),
      );
      // A fix may count the parallel posts or refuse them; it may not check a code it does not count.
      const after = await stored(authorisation);
      const counted = after.scaStatus === 'failed' ? MAX_WRONG_CODES : after.codeAttempts;
      expect(h.authenticator.codeCalls.length, `codes checked, of which ${counted} counted`).toBeLessThanOrEqual(counted);
      // Going on one code at a time, the authorisation fails after MAX_WRONG_CODES checked codes in all.
      let outcome: PageOutcome | undefined;
      while ((await stored(authorisation)).scaStatus === 'psuIdentified' && h.authenticator.codeCalls.length < 10) {
        outcome = await h.service.enterCode(authorisation.id, pass(authorisation), '000009');
      }
      expect((await stored(authorisation)).scaStatus).toBe('failed');
      expect(h.authenticator.codeCalls).toHaveLength(MAX_WRONG_CODES);
      if (outcome) expect(outcome.kind).toBe('finished');
    });

    it('takes the right code (surrounding spaces ignored) after wrong ones and selects the method', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'psuIdentified');
      expectKind(await h.service.enterCode(authorisation.id, pass(authorisation), '000000'), 'retry');
      expectKind(await h.service.enterCode(authorisation.id, pass(authorisation), '000000'), 'retry');
      const outcome = expectKind(await h.service.enterCode(authorisation.id, pass(authorisation), ` ${RIGHT_CODE} `), 'next');
      expect(outcome.authorisation.scaStatus).toBe('scaMethodSelected');
      expect(await stored(authorisation)).toMatchObject({ scaStatus: 'scaMethodSelected', psuId: PSU });
      expect(await moves(authorisation)).toEqual([
        'received→psuIdentified',
        'psuIdentified→psuAuthenticated',
        'psuAuthenticated→scaMethodSelected',
      ]);
      expect(h.authenticator.codeCalls.at(-1)).toEqual([{ tppId: TPP.id }, PSU, RIGHT_CODE]);
    });
  });

  describe('the decision', () => {
    it('fails it when the PSU rejects, says so, and rejects the resource without asking the subject to approve', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'scaMethodSelected');
      const outcome = expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'reject'), 'finished');
      expect(outcome.rejectedByPsu).toBe(true);
      expect(outcome.authorisation.scaStatus).toBe('failed');
      expect(failureReasonOf(await stored(authorisation))).toEqual(FAILURE_REASONS.rejected);
      expect(h.payments.prepared).toEqual([]);
      expect(h.payments.failures.map((failure) => [failure.inTransaction, failure.reason, failure.actor])).toEqual([
        [true, FAILURE_REASONS.rejected, { type: 'psu', id: PSU }],
      ]);
      expect((await moves(authorisation)).at(-1)).toBe('scaMethodSelected→failed');
    });

    it('finalises an approval the subject accepts, applying it inside the finalising transaction', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'scaMethodSelected');
      h.advance(30);
      const outcome = expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'approve'), 'finished');
      expect(outcome.authorisation.scaStatus).toBe('finalised');
      expect(outcome.rejectedByPsu).toBeUndefined();
      expect(await stored(authorisation)).toMatchObject({ scaStatus: 'finalised', statusChangedAt: h.nowIso() });
      expect(h.payments.prepared.map((entry) => [entry.authorisation.id, entry.psuId])).toEqual([[authorisation.id, PSU]]);
      expect(h.payments.applied).toEqual([{ inTransaction: true, statusInside: 'started', at: h.nowIso() }]);
      expect(await auditRepository.listForResource(database.db, 'test', authorisation.id)).toHaveLength(1);
      expect(h.payments.failures).toEqual([]);
      expect(await moves(authorisation)).toEqual([
        'received→psuIdentified',
        'psuIdentified→psuAuthenticated',
        'psuAuthenticated→scaMethodSelected',
        'scaMethodSelected→started',
        'started→finalised',
      ]);
    });

    it('fails an approval the subject refuses and rejects the resource when the refusal says so', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'scaMethodSelected');
      const reason = localized(
        'You may not approve payments from this account',
        'Du har ikke rett til å godkjenne betalinger fra denne kontoen',
      );
      h.payments.answer = { ok: false, reason, rejectsResource: true };
      const outcome = expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'approve'), 'finished');
      expect(outcome.authorisation.scaStatus).toBe('failed');
      expect(outcome.rejectedByPsu).toBeUndefined();
      expect(failureReasonOf(await stored(authorisation))).toEqual(reason);
      expect(h.payments.applied).toEqual([]);
      expect(h.payments.failures.map((failure) => failure.reason)).toEqual([reason]);
    });

    it('fails an approval the subject refuses but leaves the resource when the refusal says so', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'scaMethodSelected');
      const reason = localized('You have already approved this payment');
      h.payments.answer = { ok: false, reason, rejectsResource: false };
      const outcome = expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'approve'), 'finished');
      expect(outcome.authorisation.scaStatus).toBe('failed');
      expect(failureReasonOf(await stored(authorisation))).toEqual(reason);
      expect(h.payments.failures).toEqual([]);
    });

    it('fails it, rolling back the effect, when the approval cannot apply because the resource changed', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'scaMethodSelected');
      h.payments.answer = { ok: true, fails: true };
      const outcome = expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'approve'), 'finished');
      expect(outcome.authorisation.scaStatus).toBe('failed');
      const after = await stored(authorisation);
      expect(failureReasonOf(after)).toEqual(
        localized('The payment changed while it was being approved', 'Betalingen ble endret mens den ble godkjent'),
      );
      expect(h.payments.applied).toHaveLength(1);
      expect(await auditRepository.listForResource(database.db, 'test', authorisation.id)).toEqual([]);
      expect((await moves(authorisation)).slice(3)).toEqual(['scaMethodSelected→failed']);
      expect(h.payments.failures).toEqual([]);
    });

    it('says the consent changed when a consent approval cannot apply (another approver was faster)', async () => {
      const h = harness();
      const consents = new FakeSubject();
      h.service.registerSubject('consent', consents);
      const authorisation = await walk(h, await create(h, { purpose: 'consent' }), 'scaMethodSelected');
      consents.answer = { ok: true, fails: true };
      const outcome = expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'approve'), 'finished');
      expect(outcome.authorisation.scaStatus).toBe('failed');
      expect(failureReasonOf(await stored(authorisation))).toEqual(
        localized('The consent changed while it was being approved', 'Samtykket ble endret mens det ble godkjent'),
      );
      expect(consents.failures).toEqual([]);
    });

    it('asks the subject of the authorisation’s purpose: a cancellation goes to the cancellation subject', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h, { purpose: 'payment-cancellation' }), 'scaMethodSelected');
      expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'approve'), 'finished');
      expect(h.cancellations.prepared).toHaveLength(1);
      expect(h.cancellations.applied).toHaveLength(1);
      expect(h.payments.prepared).toEqual([]);
      expect(await h.service.confirmation(await stored(authorisation))).toEqual(CONFIRMATION);
      expect(await h.service.approvedMessage(await stored(authorisation))).toEqual(localized(`Approved ${authorisation.id}`));
    });
  });

  describe('refused posts', () => {
    it('refuses a wrong CSRF token with 403 on every step, changing nothing and asking nobody', async () => {
      const h = harness();
      const received = await create(h);
      const identified = await walk(h, await create(h), 'psuIdentified');
      const selected = await walk(h, await create(h), 'scaMethodSelected');
      const before = await Promise.all([received, identified, selected].map((entry) => stored(entry)));
      const calls = [h.authenticator.isCustomerCalls.length, h.authenticator.codeCalls.length];

      const outcomes = [
        await h.service.identify(received.id, { ...pass(received), csrf: 'not-the-token' }, PSU, 'code'),
        await h.service.identify(received.id, { ...pass(received), csrf: pass(received).csrf.slice(0, -1) }, PSU, 'code'),
        await h.service.identify(received.id, { ...pass(received), csrf: pass(identified).csrf }, PSU, 'code'),
        await h.service.enterCode(
          identified.id,
          { ...pass(identified), csrf: `${pass(identified).csrf.slice(0, -1)}${pass(identified).csrf.endsWith('A') ? 'B' : 'A'}` },
          RIGHT_CODE,
        ),
        await h.service.enterCode(identified.id, { ...pass(identified), csrf: '' }, '000000'),
        await h.service.decide(selected.id, { ...pass(selected), csrf: pass(received).csrf }, 'approve'),
        await h.service.decide(selected.id, { ...pass(selected), csrf: 'x' }, 'reject'),
      ];
      for (const outcome of outcomes) expect(outcome).toMatchObject({ kind: 'refused', status: 403 });
      expect(await Promise.all([received, identified, selected].map((entry) => stored(entry)))).toEqual(before);
      expect([h.authenticator.isCustomerCalls.length, h.authenticator.codeCalls.length]).toEqual(calls);
      expect(h.payments.prepared).toEqual([]);
      expect(h.payments.failures).toEqual([]);
    });

    it('refuses a post for another step with 409, changing nothing', async () => {
      const h = harness();
      const received = await create(h);
      const identified = await walk(h, await create(h), 'psuIdentified');
      const selected = await walk(h, await create(h), 'scaMethodSelected');
      const before = await Promise.all([received, identified, selected].map((entry) => stored(entry)));

      const outcomes = [
        await h.service.enterCode(received.id, pass(received), RIGHT_CODE),
        await h.service.decide(received.id, pass(received), 'approve'),
        await h.service.identify(identified.id, pass(identified), PSU, 'code'),
        await h.service.decide(identified.id, pass(identified), 'reject'),
        await h.service.identify(selected.id, pass(selected), PSU, 'code'),
        await h.service.enterCode(selected.id, pass(selected), '000000'),
      ];
      for (const outcome of outcomes) expect(outcome).toMatchObject({ kind: 'refused', status: 409 });
      expect(await Promise.all([received, identified, selected].map((entry) => stored(entry)))).toEqual(before);
      expect(h.payments.failures).toEqual([]);
    });

    it('answers a decision posted again to a finalised authorisation with its outcome, asking nobody', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'scaMethodSelected');
      expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'approve'), 'finished');
      const before = await stored(authorisation);
      for (const decision of ['reject', 'approve'] as const) {
        const again = await h.service.decide(authorisation.id, pass(authorisation), decision).catch((error: unknown) => error);
        expect(again).toEqual({ kind: 'finished', authorisation: before });
      }
      expect(await stored(authorisation)).toEqual(before);
      expect(h.payments.prepared).toHaveLength(1);
      expect(h.payments.failures).toEqual([]);
    });

    it('answers a code posted to an authorisation the wrong codes failed with its outcome, without checking the code', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'psuIdentified');
      for (let i = 0; i < MAX_WRONG_CODES; i += 1) await h.service.enterCode(authorisation.id, pass(authorisation), '000000');
      const before = await stored(authorisation);
      expect(before.scaStatus).toBe('failed');
      for (const code of [RIGHT_CODE, '000000']) {
        const again = await h.service.enterCode(authorisation.id, pass(authorisation), code).catch((error: unknown) => error);
        expect(again).toEqual({ kind: 'finished', authorisation: before });
      }
      expect(h.authenticator.codeCalls).toHaveLength(MAX_WRONG_CODES);
      expect(await stored(authorisation)).toEqual(before);
    });

    it('refuses a post to an unknown authorisation with 404', async () => {
      const h = harness();
      const access = { session: undefined, csrf: 'x' };
      expect(await h.service.identify(randomUUID(), access, PSU, 'code')).toMatchObject({ kind: 'refused', status: 404 });
      expect(await h.service.enterCode(randomUUID(), access, RIGHT_CODE)).toMatchObject({ kind: 'refused', status: 404 });
      expect(await h.service.decide(randomUUID(), access, 'approve')).toMatchObject({ kind: 'refused', status: 404 });
      expect(await h.service.visit(randomUUID(), access)).toEqual({ kind: 'unknown' });
    });
  });

  describe('the browser the pages belong to', () => {
    it('binds the first visit; the same session sees its page again, any other browser is elsewhere', async () => {
      const h = harness();
      const authorisation = await create(h);
      const again = await h.service.visit(authorisation.id, { session: pass(authorisation).session });
      expect(again).toEqual({ kind: 'page', authorisation, csrf: pass(authorisation).csrf });
      expect(await h.service.visit(authorisation.id, { session: undefined })).toEqual({ kind: 'elsewhere' });
      expect(await h.service.visit(authorisation.id, { session: `${pass(authorisation).session}x` })).toEqual({ kind: 'elsewhere' });
    });

    it('refuses every post of another browser as elsewhere, even with the right CSRF token, changing nothing and asking nobody', async () => {
      const h = harness();
      const received = await create(h);
      const identified = await walk(h, await create(h), 'psuIdentified');
      const selected = await walk(h, await create(h), 'scaMethodSelected');
      const before = await Promise.all([received, identified, selected].map((entry) => stored(entry)));
      const calls = [h.authenticator.isCustomerCalls.length, h.authenticator.codeCalls.length];
      const stranger = (authorisation: Authorisation, session: string | undefined) => ({ session, csrf: pass(authorisation).csrf });
      for (const session of [undefined, pass(received).session]) {
        const outcomes = [
          await h.service.identify(identified.id, stranger(identified, session), PSU, 'code'),
          await h.service.enterCode(identified.id, stranger(identified, session), RIGHT_CODE),
          await h.service.decide(selected.id, stranger(selected, session), 'approve'),
          await h.service.decide(selected.id, stranger(selected, session), 'reject'),
        ];
        for (const outcome of outcomes) expect(outcome).toEqual({ kind: 'elsewhere' });
      }
      expect(await h.service.identify(received.id, stranger(received, undefined), PSU, 'code')).toEqual({ kind: 'elsewhere' });
      expect(await Promise.all([received, identified, selected].map((entry) => stored(entry)))).toEqual(before);
      expect([h.authenticator.isCustomerCalls.length, h.authenticator.codeCalls.length]).toEqual(calls);
      expect(h.payments.prepared).toEqual([]);
    });

    it('takes the masked PSU-ID (or none) for the PSU the TPP named, and fails another number as before', async () => {
      const h = harness();
      for (const typed of ['\u2022\u2022\u2022\u2022\u2022\u2022\u20229955', '']) {
        const authorisation = await create(h, { expectedPsuId: PSU });
        const outcome = expectKind(await h.service.identify(authorisation.id, pass(authorisation), typed, 'code'), 'next');
        expect(outcome.authorisation.psuId).toBe(PSU);
      }
      const tampered = await create(h, { expectedPsuId: PSU });
      const outcome = expectKind(await h.service.identify(tampered.id, pass(tampered), OTHER_PSU, 'code'), 'finished');
      expect(failureReasonOf(outcome.authorisation)).toEqual(FAILURE_REASONS.otherPsu);
    });
  });

  describe('wrong codes counted per PSU', () => {
    const LOCK: CodeLockSettings = { attempts: 5, windowMinutes: 60, lockMinutes: 15 };

    it('five wrong codes across authorisations lock the PSU: no code is checked until the lock ends', async () => {
      const h = harness({ codeLock: LOCK, start: '2027-02-01T08:00:00.000Z' });
      const first = await walk(h, await create(h), 'psuIdentified');
      for (let i = 0; i < MAX_WRONG_CODES; i += 1) await h.service.enterCode(first.id, pass(first), '000000');
      const second = await walk(h, await create(h), 'psuIdentified');
      expectKind(await h.service.enterCode(second.id, pass(second), '000000'), 'retry');
      h.advance(60);
      const locking = expectKind(await h.service.enterCode(second.id, pass(second), '000000'), 'retry');
      expect(locking.status).toBe(429);
      // 08:16:00 UTC is 09:16 in Oslo; a lock ending on the minute is shown as that minute.
      expect(locking.message).toEqual(
        localized(
          'Too many wrong one-time codes. You can try again at 09:16.',
          'For mange feil engangskoder. Du kan prøve igjen kl. 09.16.',
        ),
      );
      expect(await h.service.codeLockNotice(await stored(second))).toEqual(locking.message);
      const checked = h.authenticator.codeCalls.length;
      const refused = expectKind(await h.service.enterCode(second.id, pass(second), RIGHT_CODE), 'retry');
      expect(refused).toMatchObject({ status: 429, message: locking.message });
      expect(h.authenticator.codeCalls).toHaveLength(checked);
      expect(await stored(second)).toMatchObject({ scaStatus: 'psuIdentified', codeAttempts: 2 });

      // The links expire after 10 minutes: a new authorisation of the PSU at the end of the lock.
      h.advance(10 * 60);
      const third = await walk(h, await create(h), 'psuIdentified');
      h.advance(5 * 60 - 1);
      expect(expectKind(await h.service.enterCode(third.id, pass(third), RIGHT_CODE), 'retry').status).toBe(429);
      h.advance(1);
      expect(await h.service.codeLockNotice(await stored(third))).toBeUndefined();
      expectKind(await h.service.enterCode(third.id, pass(third), RIGHT_CODE), 'next');
    });

    it('codes posted at once on several authorisations of the PSU get no more than five checks between them', async () => {
      const h = harness({ codeLock: LOCK, start: '2027-03-01T08:00:00.000Z' });
      const authorisations = [];
      for (let i = 0; i < 4; i += 1) authorisations.push(await walk(h, await create(h), 'psuIdentified'));
      const outcomes = await Promise.all(
        authorisations.flatMap((authorisation) =>
          ['000001', '000002', '000003'].map((code) => h.service.enterCode(authorisation.id, pass(authorisation), code)),
        ),
      );
      expect(h.authenticator.codeCalls.length).toBeLessThanOrEqual(LOCK.attempts);
      expect(outcomes.some((outcome) => outcome.kind === 'retry' && outcome.status === 429)).toBe(true);
      const open = authorisations[3]!;
      expect(await h.service.codeLockNotice(await stored(open))).toBeDefined();
    });

    it('in the sandbox each TPP’s mock bank counts its own PSUs', async () => {
      const h = harness({ codeLock: { ...LOCK, attempts: 1 }, start: '2027-04-01T08:00:00.000Z', sandbox: true });
      const mine = await walk(h, await create(h), 'psuIdentified');
      expect(expectKind(await h.service.enterCode(mine.id, pass(mine), '000000'), 'retry').status).toBe(429);
      const theirs = await walk(h, await create(h, { tpp: OTHER_TPP }), 'psuIdentified');
      expectKind(await h.service.enterCode(theirs.id, pass(theirs), RIGHT_CODE), 'next');
      const mineAgain = await walk(h, await create(h), 'psuIdentified');
      expect(expectKind(await h.service.enterCode(mineAgain.id, pass(mineAgain), RIGHT_CODE), 'retry').status).toBe(429);
    });

    it('purges counted codes older than the window, except a lock still on', async () => {
      const h = harness({ codeLock: { ...LOCK, attempts: 1, lockMinutes: 24 * 60 }, start: '2027-05-01T08:00:00.000Z' });
      const locked = await walk(h, await create(h), 'psuIdentified');
      await h.service.enterCode(locked.id, pass(locked), '000000');
      h.advance(61 * 60);
      await h.service.purgeCodeAttempts();
      expect(await h.service.codeLockNotice(await stored(locked))).toBeDefined();
      h.advance(24 * 60 * 60);
      expect(await h.service.purgeCodeAttempts()).toBeGreaterThan(0);
      expect(await h.service.codeLockNotice(await stored(locked))).toBeUndefined();
    });
  });

  describe('expiry', () => {
    it('keeps a link open until its expiry instant, and fails it on open() from then on', async () => {
      const h = harness();
      const authorisation = await create(h);
      h.advance(EXPIRY_SECONDS - 0.001);
      expect(await h.service.open(authorisation.id)).toEqual(authorisation);
      expect(h.payments.failures).toEqual([]);

      h.advance(0.001);
      const expired = await h.service.open(authorisation.id);
      expect(expired?.scaStatus).toBe('failed');
      expect(failureReasonOf(expired!)).toEqual(FAILURE_REASONS.expired);
      expect(await stored(authorisation)).toEqual(expired);
      expect(h.payments.failures.map((failure) => [failure.inTransaction, failure.reason, failure.at, failure.actor])).toEqual([
        [true, FAILURE_REASONS.expired, '2026-11-20T08:10:00.000Z', { type: 'system', id: 'sca-link-expiry' }],
      ]);
      // The link's expiry, not the PSU, failed it.
      const audit = await auditRepository.listForResource(database.db, 'authorisation', authorisation.id);
      expect(audit.map((entry) => entry.actor)).toEqual([{ type: 'system', id: 'sca-link-expiry' }]);
      // Once failed, it stays failed: opening it again does nothing more.
      h.advance(60);
      expect(await h.service.open(authorisation.id)).toEqual(expired);
      expect(h.payments.failures).toHaveLength(1);
      expect(await h.service.open(randomUUID())).toBeUndefined();
    });

    it('fails an expired link on find() by its own TPP, purpose and resource, and finds nothing for others', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'psuIdentified');
      h.advance(EXPIRY_SECONDS);
      const resourceId = authorisation.resourceId!;
      expect(await h.service.find(OTHER_TPP.id, 'payment', resourceId, authorisation.id)).toBeUndefined();
      expect(await h.service.find(TPP.id, 'payment-cancellation', resourceId, authorisation.id)).toBeUndefined();
      expect(await h.service.find(TPP.id, 'payment', randomUUID(), authorisation.id)).toBeUndefined();
      expect((await stored(authorisation)).scaStatus).toBe('psuIdentified');

      const found = await h.service.find(TPP.id, 'payment', resourceId, authorisation.id);
      expect(found?.scaStatus).toBe('failed');
      expect(await moves(authorisation)).toEqual(['received→psuIdentified', 'psuIdentified→failed']);
    });

    it('answers a form post after expiry with the failed outcome, doing no step', async () => {
      const h = harness();
      const authorisation = await create(h);
      h.advance(EXPIRY_SECONDS + 1);
      const outcome = await h.service.identify(authorisation.id, pass(authorisation), PSU, 'code').catch((error: unknown) => error);
      expect(outcome).toEqual({ kind: 'finished', authorisation: await stored(authorisation) });
      expect((await stored(authorisation)).scaStatus).toBe('failed');
      expect(h.authenticator.isCustomerCalls).toEqual([]);
      expect(await moves(authorisation)).toEqual(['received→failed']);
      expect(h.payments.failures.map((failure) => failure.reason)).toEqual([FAILURE_REASONS.expired]);
    });

    it('does not expire a finished authorisation', async () => {
      const h = harness();
      const authorisation = await walk(h, await create(h), 'scaMethodSelected');
      expectKind(await h.service.decide(authorisation.id, pass(authorisation), 'approve'), 'finished');
      h.advance(EXPIRY_SECONDS * 10);
      expect((await h.service.open(authorisation.id))?.scaStatus).toBe('finalised');
    });

    describe('the sweep', () => {
      /*
       * The sweep sees every row of the database, so each of these tests runs its clock from its
       * own start far after the other tests' and sweeps everything older first. (A second PostgreSQL test database in the same process cannot be
       * opened while this one lives: see the report on migrateToLatest.)
       */
      async function sweptHarness(start: string): Promise<Harness> {
        const h = harness({ start });
        await h.service.expireOverdue();
        expect(await h.service.expireOverdue()).toBe(0);
        h.payments.failures.splice(0);
        return h;
      }

      it('expireOverdueOf fails the due open authorisations of one resource only', async () => {
        const h = await sweptHarness('2099-01-01T00:00:00.000Z');
        const resourceId = randomUUID();
        const mine = await create(h, { resourceId });
        const other = await create(h);
        h.advance(EXPIRY_SECONDS);
        expect(await h.service.expireOverdueOf('payment', [resourceId])).toBe(1);
        expect((await stored(mine)).scaStatus).toBe('failed');
        expect((await stored(other)).scaStatus).toBe('received');
        expect(h.payments.failures.map((failure) => failure.authorisation.id)).toEqual([mine.id]);
      });

      it('expireOverdue fails every open authorisation whose link is due, once, and counts them', async () => {
        const h = await sweptHarness('2099-06-01T00:00:00.000Z');
        const received = await create(h);
        const identified = await walk(h, await create(h), 'psuIdentified');
        const login = await create(h, { purpose: 'psu-login' });
        const done = await walk(h, await create(h), 'scaMethodSelected');
        expectKind(await h.service.decide(done.id, pass(done), 'approve'), 'finished');
        h.advance(60);
        const later = await create(h);

        h.advance(EXPIRY_SECONDS - 61);
        expect(await h.service.expireOverdue()).toBe(0);
        h.advance(1);
        expect(await h.service.expireOverdue()).toBe(3);
        for (const entry of [received, identified, login]) expect((await stored(entry)).scaStatus).toBe('failed');
        for (const entry of [received, identified, login]) expect(failureReasonOf(await stored(entry))).toEqual(FAILURE_REASONS.expired);
        expect((await stored(done)).scaStatus).toBe('finalised');
        expect((await stored(later)).scaStatus).toBe('received');
        // A PSU login has no subject: only the two payment authorisations reject their resource.
        expect(h.payments.failures.map((failure) => failure.authorisation.id).sort()).toEqual([received.id, identified.id].sort());
        expect(await h.service.expireOverdue()).toBe(0);

        h.advance(60);
        expect(await h.service.expireOverdue()).toBe(1);
        expect((await stored(later)).scaStatus).toBe('failed');
      });
    });
  });

  describe('PSU login', () => {
    async function loggedIn(h: Harness, tpp = TPP, method: 'code' | 'app' = 'code'): Promise<{ login: Authorisation; code: string }> {
      const login = await create(h, { purpose: 'psu-login', tpp, biometric: method === 'app' });
      if (method === 'code') expectKind(await h.service.identify(login.id, pass(login), PSU, 'code'), 'next');
      const outcome = expectKind(
        method === 'code'
          ? await h.service.enterCode(login.id, pass(login), RIGHT_CODE)
          : await h.service.identify(login.id, pass(login), PSU, 'app'),
        'finished',
      );
      expect(outcome.loginCode).toBeDefined();
      return { login: outcome.authorisation, code: outcome.loginCode! };
    }

    it('finalises on the right code with a one-time login code, stored only as its hash, valid 60 s', async () => {
      const h = harness();
      const { login, code } = await loggedIn(h);
      expect(login.scaStatus).toBe('finalised');
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const after = await stored(login);
      expect(after).toMatchObject({
        scaStatus: 'finalised',
        psuId: PSU,
        loginCodeHash: sha256(code),
        loginCodeExpiresAt: '2026-11-20T08:01:00.000Z',
      });
      expect(JSON.stringify(after)).not.toContain(code);
      expect(await moves(login)).toEqual(['received→psuIdentified', 'psuIdentified→psuAuthenticated', 'psuAuthenticated→finalised']);
      expect(h.payments.prepared).toEqual([]);
      expect(h.payments.failures).toEqual([]);
      await expect(h.service.confirmation(after)).rejects.toThrow();
      await expect(h.service.approvedMessage(after)).rejects.toThrow();
    });

    it('finalises with a login code through the app confirmation too', async () => {
      const h = harness({ offersApp: true });
      const { login, code } = await loggedIn(h, TPP, 'app');
      expect((await stored(login)).loginCodeHash).toBe(sha256(code));
      expect(await h.service.redeemLoginCode(TPP.id, code)).toEqual({ psuId: PSU, loginId: login.id });
    });

    it('redeems the code once: the PSU it identified and the login, then nothing', async () => {
      const h = harness();
      const { login, code } = await loggedIn(h);
      h.advance(59.999);
      expect(await h.service.redeemLoginCode(TPP.id, code)).toEqual({ psuId: PSU, loginId: login.id });
      expect(await h.service.redeemLoginCode(TPP.id, code)).toBeUndefined();
    });

    it('redeems the code only for the TPP that started the login (another TPP’s attempt also spends it)', async () => {
      const h = harness();
      const { code } = await loggedIn(h);
      expect(await h.service.redeemLoginCode(OTHER_TPP.id, code)).toBeUndefined();
      // Documented behaviour: the code is taken before the TPP is compared, so a leaked code is dead for everyone.
      expect(await h.service.redeemLoginCode(TPP.id, code)).toBeUndefined();
    });

    it('does not redeem the code 60 s after the login or later', async () => {
      const h = harness();
      const { code } = await loggedIn(h);
      h.advance(LOGIN_CODE_SECONDS);
      expect(await h.service.redeemLoginCode(TPP.id, code)).toBeUndefined();
    });

    it('does not redeem an unknown code, nor another login’s code changed by one character', async () => {
      const h = harness();
      const { login, code } = await loggedIn(h);
      const changed = `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`;
      expect(await h.service.redeemLoginCode(TPP.id, changed)).toBeUndefined();
      expect(await h.service.redeemLoginCode(TPP.id, '')).toBeUndefined();
      expect(await h.service.redeemLoginCode(TPP.id, code)).toEqual({ psuId: PSU, loginId: login.id });
    });

    it('fails a login at the third wrong code without a login code', async () => {
      const h = harness();
      const login = await walk(h, await create(h, { purpose: 'psu-login' }), 'psuIdentified');
      let outcome: PageOutcome | undefined;
      for (let i = 0; i < MAX_WRONG_CODES; i += 1) outcome = await h.service.enterCode(login.id, pass(login), '000000');
      const finished = expectKind(outcome!, 'finished');
      expect(finished.authorisation.scaStatus).toBe('failed');
      expect(finished.loginCode).toBeUndefined();
      expect((await stored(login)).loginCodeHash).toBeUndefined();
    });
  });
});

describe('failureReasonOf', () => {
  const base = { statusReason: undefined } as unknown as Authorisation;
  const withReason = (statusReason: string | undefined): Authorisation => ({ ...base, statusReason });

  it('reads the stored JSON of both languages', () => {
    expect(failureReasonOf(withReason(JSON.stringify(FAILURE_REASONS.expired)))).toEqual(FAILURE_REASONS.expired);
    expect(failureReasonOf(withReason('{"en":"Gone","nb":"Borte"}'))).toEqual({ en: 'Gone', nb: 'Borte' });
  });

  it('is undefined without a reason', () => {
    expect(failureReasonOf(withReason(undefined))).toBeUndefined();
  });

  it('reads plain text (written by an older version) as the same text in both languages', () => {
    expect(failureReasonOf(withReason('SCA failed'))).toEqual({ en: 'SCA failed', nb: 'SCA failed' });
  });

  it('reads JSON that is not a text in both languages as plain text', () => {
    for (const raw of ['{"en":"only English"}', '{"en":1,"nb":"x"}', '"quoted"', '42', 'null', '[]']) {
      expect(failureReasonOf(withReason(raw))).toEqual({ en: raw, nb: raw });
    }
  });
});
