/**
 * The SCA pages belong to one browser, show the PSU-ID masked, and count wrong codes per PSU:
 * - the first GET of an authorisation's page sets a session cookie: HttpOnly, SameSite=Lax, Path the
 *   authorisation's own pages under the SCA base path, Secure when XS2A_PUBLIC_URL is https; the
 *   same browser gets no new cookie and the same CSRF token again;
 * - any other browser (no cookie, or another authorisation's cookie) gets the 409 in-progress page
 *   (en and nb) on every GET and every form post, even with the first browser's CSRF token, and
 *   nothing changes (scaStatus read by the TPP, the payment's status);
 * - with the right cookie, a wrong CSRF token is a 403 page and changes nothing;
 * - no page (identify, retries, code, confirmation, outcome, in-progress) holds the whole PSU-ID;
 * - five wrong codes of one PSU within an hour, across its authorisations, lock its code step for
 *   15 minutes: the code page says until when (429 on a post), the right code is refused too, on
 *   every authorisation of that PSU, not another PSU's; after the 15 minutes the right code works;
 *   wrong codes more than an hour apart do not add up. Moved by the server's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../../src/client/cookie-jar.js';
import { DIALECTS } from '../support/databases.js';
import { NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { identityNumber } from '../support/sandbox.js';
import {
  alertOf,
  CLOCK_ENV,
  createPayment,
  csrfOf,
  decide,
  enterCode,
  expectSeeOther,
  formActionOf,
  identify,
  idOfLink,
  maskedPsuId,
  NOK_URI,
  OK_URI,
  openPage,
  otherBrowser,
  paymentStatusOf,
  postPage,
  SANDBOX_CODE,
  scaStatusOf,
  testClock,
  type Browser,
  type PageAnswer,
  type TestClock,
} from '../support/sca.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const COOKIE = 'xs2a_sca_session';
const URIS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };

const IN_PROGRESS = {
  en: {
    heading: '<h1>In progress in another browser</h1>',
    alert:
      'This link has already been opened in another browser, and it can only be finished there. Go back to that browser, or start again from the app you came from.',
  },
  nb: {
    heading: '<h1>I gang i en annen nettleser</h1>',
    alert:
      'Denne lenken er allerede åpnet i en annen nettleser, og den kan bare fullføres der. Gå tilbake til den nettleseren, eller start på nytt fra appen du kom fra.',
  },
} as const;

/** The Set-Cookie values of an answer. */
function setCookies(answer: PageAnswer): string[] {
  const value = answer.headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Asserts the in-progress page (409, in the language asked) and that it offers no form. */
function expectInProgress(answer: PageAnswer, language: 'en' | 'nb' = 'en'): void {
  expect({ status: answer.status, location: answer.location }, answer.text).toEqual({ status: 409, location: undefined });
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.text).toContain(`<html lang="${language}">`);
  expect(answer.text).toContain(IN_PROGRESS[language].heading);
  expect(alertOf(answer.text)).toBe(IN_PROGRESS[language].alert);
  expect(formActionOf(answer.text)).toBeUndefined();
  expect(setCookies(answer)).toEqual([]);
}

describe.each(DIALECTS)('SCA pages bound to one browser (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server?.close());

  async function payment(headers: Record<string, string> = URIS, named = true) {
    const created = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), {
      ...(named ? psu.headers : {}),
      ...headers,
    });
    const link = created.links['scaRedirect']!.href;
    return { ...created, link, id: idOfLink(link), scaStatus: created.links['scaStatus']!.href };
  }

  const statusOf = async (href: string) => (await scaStatusOf(server.client, href)).scaStatus;

  describe('the session cookie', () => {
    it('the first GET sets it, HttpOnly and SameSite=Lax, for the authorisation’s own path, without Secure over http', async () => {
      const { link, id } = await payment();
      const page = await openPage(link, { cookies: new CookieJar() });
      expect(page.status).toBe(200);
      const [cookie, ...more] = setCookies(page);
      expect(more).toEqual([]);
      expect(cookie).toMatch(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{43}; Path=/sca/${id}; HttpOnly; SameSite=Lax$`));
    });

    it('the same browser gets no new cookie and the same CSRF token again; two browsers never share a session', async () => {
      const { link } = await payment();
      const mine = new CookieJar();
      const first = await openPage(link, { cookies: mine });
      const again = await openPage(link, { cookies: mine });
      expect(again.status).toBe(200);
      expect(setCookies(again)).toEqual([]);
      expect(csrfOf(again.text)).toBe(csrfOf(first.text));
      const other = await payment();
      const elsewhere = await openPage(other.link, { cookies: mine });
      expect(setCookies(elsewhere)[0]?.split(';')[0]).not.toBe(setCookies(first)[0]?.split(';')[0]);
      expect(csrfOf(elsewhere.text)).not.toBe(csrfOf(first.text));
    });

    it('a cookie sent before the first visit is not taken over: the session starts fresh', async () => {
      const { link, id } = await payment();
      const planted = `${COOKIE}=${'A'.repeat(43)}`;
      const jar = new CookieJar();
      jar.store(new URL(link), `${planted}; Path=/sca/${id}`);
      const page = await openPage(link, { cookies: jar });
      expect(setCookies(page)[0]?.split(';')[0]).not.toBe(planted);
      const stranger = new CookieJar();
      stranger.store(new URL(link), `${planted}; Path=/sca/${id}`);
      expectInProgress(await openPage(link, { cookies: stranger }));
    });
  });

  describe('another browser', () => {
    /** The first browser's pages of a payment walked to `to`; answers what it needs later. */
    async function walkedTo(to: 'received' | 'psuIdentified' | 'scaMethodSelected' | 'finalised') {
      const created = await payment();
      const first: Browser = { cookies: new CookieJar() };
      let page = await openPage(created.link, first);
      const csrf = csrfOf(page.text);
      if (to !== 'received') expectSeeOther(await identify(created.link, psu.customerNumber, first));
      if (to === 'scaMethodSelected' || to === 'finalised') expectSeeOther(await enterCode(created.link, SANDBOX_CODE, first));
      if (to === 'finalised') expect(expectSeeOther(await decide(created.link, 'approve', first))).toBe(OK_URI);
      page = await openPage(created.link, first);
      return { ...created, first, csrf, page };
    }

    /** Every step another browser could take, with the first browser's CSRF token. */
    async function everyStep(link: string, csrf: string, browser: Browser): Promise<PageAnswer[]> {
      return [
        await openPage(link, browser),
        await postPage(`${link}/identify`, { csrf, psuId: psu.customerNumber, method: 'code' }, browser),
        await postPage(`${link}/identify`, { csrf, psuId: '', method: 'app' }, browser),
        await postPage(`${link}/code`, { csrf, code: SANDBOX_CODE }, browser),
        await postPage(`${link}/code`, { csrf, code: '000000' }, browser),
        await postPage(`${link}/decision`, { csrf, decision: 'approve' }, browser),
        await postPage(`${link}/decision`, { csrf, decision: 'reject' }, browser),
      ];
    }

    it.each(['received', 'psuIdentified', 'scaMethodSelected'] as const)(
      'gets the in-progress page on every GET and post while the authorisation is %s, and nothing changes',
      async (state) => {
        const walked = await walkedTo(state);
        expect(await statusOf(walked.scaStatus)).toBe(state);
        for (const answer of await everyStep(walked.link, walked.csrf, otherBrowser())) expectInProgress(answer);
        expect(await statusOf(walked.scaStatus)).toBe(state);
        expect((await paymentStatusOf(server.client, walked.path)).transactionStatus).toBe('RCVD');
        // The first browser goes on as if nothing happened: no wrong code was counted for it.
        if (state === 'psuIdentified') {
          const wrong = await enterCode(walked.link, '000000', walked.first);
          expect(alertOf(wrong.text)).toBe('Wrong code. 2 attempts left.');
        }
      },
    );

    it('sees no outcome of a finished authorisation either: only the in-progress page', async () => {
      const walked = await walkedTo('finalised');
      expect(walked.page.status).toBe(200);
      expect(walked.page.text).toContain('You have approved it.');
      expectInProgress(await openPage(walked.link, otherBrowser()));
      expect(await statusOf(walked.scaStatus)).toBe('finalised');
    });

    it('is told in Norwegian on a Norwegian browser', async () => {
      const walked = await walkedTo('psuIdentified');
      const nb = otherBrowser({ language: 'nb' });
      expectInProgress(await openPage(walked.link, nb), 'nb');
      expectInProgress(await postPage(`${walked.link}/code`, { csrf: walked.csrf, code: SANDBOX_CODE }, nb), 'nb');
    });

    it('with the session cookie of another authorisation is another browser too', async () => {
      const walked = await walkedTo('psuIdentified');
      const mine = await walkedTo('received');
      const foreign = mine.first.cookies?.header(new URL(mine.link)) ?? '';
      expect(foreign).toMatch(new RegExp(`^${COOKIE}=`));
      const jar = new CookieJar();
      jar.store(new URL(walked.link), `${foreign}; Path=/sca/${walked.id}`);
      for (const answer of await everyStep(walked.link, walked.csrf, { cookies: jar })) expectInProgress(answer);
      expect(await statusOf(walked.scaStatus)).toBe('psuIdentified');
    });

    it('the project driver in another browser ends on the in-progress page; in the first browser it finishes', async () => {
      const walked = await walkedTo('psuIdentified');
      const stranger = await server.client.actAsPsu(walked.link);
      expect(stranger).toMatchObject({ redirectedTo: undefined, lastStatus: 409, steps: [] });
      expect(await statusOf(walked.scaStatus)).toBe('psuIdentified');
      const owner = await server.client.actAsPsu(walked.link, { cookies: walked.first.cookies });
      expect(owner).toMatchObject({ redirectedTo: OK_URI, steps: ['code', 'decision'] });
      expect((await paymentStatusOf(server.client, walked.path)).transactionStatus).toBe('ACTC');
    });
  });

  describe('CSRF token of the browser session', () => {
    it('with the right cookie, a wrong CSRF token is a 403 page on every post and changes nothing', async () => {
      const { link, scaStatus, path } = await payment();
      const browser: Browser = { cookies: new CookieJar() };
      const csrf = csrfOf((await openPage(link, browser)).text);
      const forged = `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}`;
      for (const [step, fields] of [
        ['identify', { psuId: psu.customerNumber, method: 'code' }],
        ['code', { code: SANDBOX_CODE }],
        ['decision', { decision: 'approve' }],
      ] as const) {
        for (const token of [forged, '']) {
          const answer = await postPage(`${link}/${step}`, { csrf: token, ...fields }, browser);
          expect(answer.status).toBe(403);
          expect(alertOf(answer.text)).toContain('did not come from this page');
        }
      }
      expect(await statusOf(scaStatus)).toBe('received');
      expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('RCVD');
      expectSeeOther(await postPage(`${link}/identify`, { csrf, psuId: psu.customerNumber, method: 'code' }, browser));
    });

    it('a post to an authorisation whose link no browser opened yet is a 403 page (open the link again)', async () => {
      const { link, scaStatus } = await payment();
      const answer = await postPage(`${link}/identify`, { csrf: 'x', psuId: psu.customerNumber, method: 'code' }, otherBrowser());
      expect(answer.status).toBe(403);
      expect(await statusOf(scaStatus)).toBe('received');
    });
  });

  describe('the PSU-ID is masked', () => {
    it('no page of a named PSU’s walk holds the whole PSU-ID: identify, code, wrong code, confirmation, outcome', async () => {
      const { link } = await payment();
      const browser: Browser = { cookies: new CookieJar() };
      const pages: PageAnswer[] = [];
      const identifyPage = await openPage(link, browser);
      pages.push(identifyPage);
      expect(identifyPage.text).toContain(`value="${maskedPsuId(psu.customerNumber)}"`);
      expect(maskedPsuId(psu.customerNumber)).toMatch(/^•{7}\d{4}$/);
      // The masked value posted back stands for the PSU the TPP named.
      expectSeeOther(
        await postPage(
          `${link}/identify`,
          { csrf: csrfOf(identifyPage.text), psuId: maskedPsuId(psu.customerNumber), method: 'code' },
          browser,
        ),
      );
      pages.push(await openPage(link, browser));
      pages.push(await enterCode(link, '000000', browser));
      expectSeeOther(await enterCode(link, SANDBOX_CODE, browser));
      pages.push(await openPage(link, browser));
      pages.push(await openPage(link, { ...browser, language: 'nb' }));
      pages.push(await decide(link, 'reject', browser));
      expect(pages.at(-1)?.location).toBe(NOK_URI);
      pages.push(await openPage(link, browser));
      pages.push(await openPage(link, otherBrowser()));
      expect(pages.map((page) => page.status)).toEqual([200, 200, 400, 200, 200, 303, 200, 409]);
      for (const page of pages) expect(page.text).not.toContain(psu.customerNumber);
    });

    it('a number the PSU typed that names someone is not shown again; a malformed one is', async () => {
      const { link } = await payment(URIS, false);
      const browser: Browser = { cookies: new CookieJar() };
      const stranger = identityNumber();
      const unknown = await identify(link, stranger, browser);
      expect(unknown.status).toBe(400);
      expect(unknown.text).not.toContain(stranger);
      expect(unknown.text).toContain('value=""');
      const malformed = await identify(link, '1234', browser);
      expect(malformed.text).toContain('value="1234"');
      expectSeeOther(await identify(link, psu.customerNumber, browser));
      for (const page of [await openPage(link, browser), await enterCode(link, '000000', browser)]) {
        expect(page.text).not.toContain(psu.customerNumber);
      }
    });
  });
});

describe('the session cookie behind an https public URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { XS2A_PUBLIC_URL: 'https://bank.example/psd2' } });
  });
  afterAll(() => server?.close());

  it('is Secure, with the path under the public URL’s path', async () => {
    const psu = await privatePsu(server.client);
    const created = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), psu.headers);
    const link = created.links['scaRedirect']!.href;
    const id = idOfLink(link);
    expect(link).toBe(`https://bank.example/psd2/sca/${id}`);
    // The reverse proxy strips /psd2: the server itself serves /sca.
    const page = await openPage(`${server.baseUrl}/sca/${id}`, { cookies: new CookieJar() });
    expect(page.status).toBe(200);
    expect(setCookies(page)).toEqual([
      expect.stringMatching(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{43}; Path=/psd2/sca/${id}; HttpOnly; SameSite=Lax; Secure$`)),
    ]);
  });
});

describe.each(DIALECTS)('wrong one-time codes counted per PSU (%s)', (dialect) => {
  let server: TestServer;
  let clock: TestClock;
  beforeAll(async () => {
    clock = testClock();
    server = await startTestServer({
      dialect,
      now: clock.now,
      env: {
        ...CLOCK_ENV,
        XS2A_SCA_CODE_LOCK_ATTEMPTS: '5',
        XS2A_SCA_CODE_LOCK_WINDOW_MINUTES: '60',
        XS2A_SCA_CODE_LOCK_MINUTES: '15',
        // The links outlive the moves of the clock.
        XS2A_SCA_EXPIRY_SECONDS: '86400',
      },
    });
  });
  afterAll(() => server?.close());

  /** A payment of `who`, its link opened and the PSU identified in the PSU's browser. */
  async function identified(who: Psu) {
    const created = await createPayment(server.client, 'payments', NDCT, ndctBody(who.account), { ...who.headers, ...URIS });
    const link = created.links['scaRedirect']!.href;
    expectSeeOther(await identify(link, who.customerNumber));
    return { ...created, link, scaStatus: created.links['scaStatus']!.href };
  }

  const statusOf = async (href: string) => (await scaStatusOf(server.client, href)).scaStatus;

  /**
   * When a lock set at `at` ends, as the code page says it: the local time (Europe/Oslo, HH:MM),
   * rounded up to the minute, and the date too when that is the next day in Oslo.
   */
  function lockEnd(at: Date, minutes = 15): string {
    const end = new Date(Math.ceil((at.getTime() + minutes * 60_000) / 60_000) * 60_000);
    const time = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      end,
    );
    const osloDay = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(date);
    return osloDay(end) === osloDay(at) ? time : `${time} on ${osloDay(end)}`;
  }

  it('five wrong codes across two authorisations lock the code step of the PSU for 15 minutes, then the right code works', async () => {
    const psu = await privatePsu(server.client);
    const first = await identified(psu);
    for (const code of ['000001', '000002']) expect((await enterCode(first.link, code)).status).toBe(400);
    const third = await enterCode(first.link, '000003');
    expect(alertOf(third.text)).toBe('The one-time code was wrong 3 times');
    expect(await statusOf(first.scaStatus)).toBe('failed');

    const second = await identified(psu);
    expect(alertOf((await enterCode(second.link, '000004')).text)).toBe('Wrong code. 2 attempts left.');
    const before = clock.now();
    const fifth = await enterCode(second.link, '000005');
    const after = clock.now();
    expect(fifth.status).toBe(429);
    expect(formActionOf(fifth.text)).toMatch(/\/code$/);
    const message = alertOf(fifth.text) ?? '';
    expect([lockEnd(before), lockEnd(after)].map((time) => `Too many wrong one-time codes. You can try again at ${time}.`)).toContain(
      message,
    );
    expect(await statusOf(second.scaStatus)).toBe('psuIdentified');

    // Locked: the right code is refused too, on this and any other authorisation of the PSU.
    const right = await enterCode(second.link, SANDBOX_CODE);
    expect(right.status).toBe(429);
    expect(alertOf(right.text)).toBe(message);
    expect(await statusOf(second.scaStatus)).toBe('psuIdentified');
    const third2 = await identified(psu);
    const page = await openPage(third2.link);
    expect(page.status).toBe(200);
    expect(alertOf(page.text)).toBe(message);
    expect(alertOf((await openPage(third2.link, { language: 'nb' })).text)).toMatch(
      /^For mange feil engangskoder\. Du kan prøve igjen kl\. \d{2}\.\d{2}\.$/,
    );
    expect((await enterCode(third2.link, SANDBOX_CODE)).status).toBe(429);
    expect(await statusOf(third2.scaStatus)).toBe('psuIdentified');

    // Another PSU is not locked.
    const other = await privatePsu(server.client);
    const others = await identified(other);
    expectSeeOther(await enterCode(others.link, SANDBOX_CODE));
    expect(await statusOf(others.scaStatus)).toBe('scaMethodSelected');

    clock.advance(14 * 60);
    expect((await enterCode(second.link, SANDBOX_CODE)).status).toBe(429);
    clock.advance(60);
    const page2 = await openPage(second.link);
    expect(alertOf(page2.text)).toBeUndefined();
    // The locked tries did not count on the authorisation: its last attempt is still there.
    expectSeeOther(await enterCode(second.link, SANDBOX_CODE));
    expect(await statusOf(second.scaStatus)).toBe('scaMethodSelected');
    expectSeeOther(await enterCode(third2.link, SANDBOX_CODE));
    expect(await statusOf(third2.scaStatus)).toBe('scaMethodSelected');
    expect((await paymentStatusOf(server.client, first.path)).transactionStatus).toBe('RJCT');
  });

  it('after a lock, counting starts again: a single wrong code does not lock the PSU again', async () => {
    const who = await privatePsu(server.client);
    for (let i = 0; i < 2; i += 1) {
      const authorisation = await identified(who);
      for (const code of ['000001', '000002', '000003'].slice(0, i === 0 ? 3 : 2)) await enterCode(authorisation.link, code);
      if (i === 1) expect(await statusOf(authorisation.scaStatus)).toBe('psuIdentified');
    }
    const locked = await identified(who);
    expect((await enterCode(locked.link, SANDBOX_CODE)).status).toBe(429);
    clock.advance(15 * 60);
    const again = await enterCode(locked.link, '000009');
    expect(again.status).toBe(400);
    expect(alertOf(again.text)).toBe('Wrong code. 2 attempts left.');
    expectSeeOther(await enterCode(locked.link, SANDBOX_CODE));
  });

  it('wrong codes more than an hour apart do not add up', async () => {
    const who = await privatePsu(server.client);
    const early = await identified(who);
    for (const code of ['000001', '000002']) await enterCode(early.link, code);
    const middle = await identified(who);
    for (const code of ['000001', '000002']) await enterCode(middle.link, code);
    clock.advance(61 * 60);
    const late = await identified(who);
    const wrong = await enterCode(late.link, '000005');
    expect(wrong.status).toBe(400);
    expect(alertOf(wrong.text)).toBe('Wrong code. 2 attempts left.');
    expectSeeOther(await enterCode(late.link, SANDBOX_CODE));
  });
});
