/**
 * The PSU's pages of SCA by redirect, walked with plain form posts as a browser would:
 * - identify (psuId, hidden csrf, button method=code; PSU-ID prefilled masked and readonly when the TPP
 *   named one; a button method=app on a mobile user agent when Biometric-Authentication is true),
 *   code (field code; a wrong code: 400 with the attempts left; the third fails), confirmation
 *   (decision approve | reject); the app confirmation skips the code;
 * - a wrong CSRF token is a 403 page and changes nothing; a post for a step already done is a 409 page;
 * - approval: 303 to TPP-Redirect-URI; rejection: 303 to TPP-Nok-Redirect-URI (else
 *   TPP-Redirect-URI); other failures and no redirect URI: an outcome page;
 * - every page: no-store, the CSP, X-Frame-Options DENY, no referrer, text/html; Accept-Language nb
 *   gives Norwegian pages.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { identityNumber } from '../support/sandbox.js';
import {
  alertOf,
  ANDROID_UA,
  buttonsOf,
  continueHrefOf,
  createPayment,
  csrfOf,
  decide,
  DESKTOP_UA,
  enterCode,
  expectSeeOther,
  formActionOf,
  identify,
  idOfLink,
  inputOf,
  IPHONE_UA,
  maskedPsuId,
  NOK_URI,
  OK_URI,
  openPage,
  paymentStatusOf,
  postPage,
  scaMoves,
  scaStatusOf,
  walk,
  type PageAnswer,
} from '../support/sca.js';
import { rawExchange } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const URIS = { 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': NOK_URI };

/** Asserts the security headers every PSU page carries. */
function expectPageHeaders(page: PageAnswer, formOrigins: readonly string[] = []): void {
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.headers['cache-control']).toBe('no-store');
  expect(page.headers['x-frame-options']).toBe('DENY');
  expect(page.headers['referrer-policy']).toBe('no-referrer');
  expect(page.headers['x-content-type-options']).toBe('nosniff');
  const csp = String(page.headers['content-security-policy'] ?? '');
  const directives = Object.fromEntries(
    csp.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
  const style = /<style>([\s\S]*?)<\/style>/.exec(page.text)?.[1] ?? '';
  expect(directives).toEqual({
    'default-src': "'none'",
    'style-src': `'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    'form-action': ["'self'", ...formOrigins].join(' '),
    'frame-ancestors': "'none'",
    'base-uri': "'none'",
  });
}

describe.each(DIALECTS)('SCA redirect pages (%s)', (dialect) => {
  let server: TestServer;
  let psu: Psu;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    psu = await privatePsu(server.client);
  });
  afterAll(() => server.close());

  /** A payment of the PSU; the PSU-ID header is sent unless `named` is false. Answers its links. */
  async function payment(headers: Record<string, string> = {}, named = true) {
    const created = await createPayment(server.client, 'payments', NDCT, ndctBody(psu.account), {
      ...(named ? psu.headers : {}),
      ...headers,
    });
    const link = created.links['scaRedirect']!.href;
    return { ...created, link, id: idOfLink(link), scaStatus: created.links['scaStatus']!.href };
  }

  const statusOf = async (href: string) => (await scaStatusOf(server.client, href)).scaStatus;

  describe('identify page', () => {
    it('has a form posting to /sca/{id}/identify with the psuId field, a hidden csrf token and one button method=code', async () => {
      const { link, id } = await payment({}, false);
      const page = await openPage(link, { userAgent: DESKTOP_UA });
      expect(page.status).toBe(200);
      expect(formActionOf(page.text)).toBe(`/sca/${id}/identify`);
      expect(csrfOf(page.text)).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const field = inputOf(page.text, 'psuId') ?? '';
      expect(field).toContain('value=""');
      expect(field).not.toContain('readonly');
      expect(buttonsOf(page.text)).toEqual(['method=code']);
      expect(page.text).toContain('PSDNO-FSA-123456789 AS');
    });

    it('shows the PSU-ID the TPP named prefilled and readonly', async () => {
      const { link } = await payment();
      const field = inputOf((await openPage(link)).text, 'psuId') ?? '';
      expect(field).toContain(`value="${maskedPsuId(psu.customerNumber)}"`);
      expect(field).toContain(' readonly');
    });

    it.each([
      ['iPhone', IPHONE_UA],
      ['Android', ANDROID_UA],
      ['iPad', 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/604.1'],
    ])(
      'offers the app confirmation (method=app) on a mobile user agent (%s) when Biometric-Authentication is not sent',
      async (_name, ua) => {
        const { link } = await payment();
        expect(buttonsOf((await openPage(link, { userAgent: ua })).text)).toEqual(['method=code', 'method=app']);
      },
    );

    it('offers the app confirmation with Biometric-Authentication: true on mobile only, never on a desktop user agent', async () => {
      const { link } = await payment({ 'biometric-authentication': 'true' });
      expect(buttonsOf((await openPage(link, { userAgent: IPHONE_UA })).text)).toEqual(['method=code', 'method=app']);
      expect(buttonsOf((await openPage(link, { userAgent: DESKTOP_UA })).text)).toEqual(['method=code']);
    });

    it('does not offer the app confirmation with Biometric-Authentication: false, even on a phone', async () => {
      const { link } = await payment({ 'biometric-authentication': 'false' });
      expect(buttonsOf((await openPage(link, { userAgent: IPHONE_UA })).text)).toEqual(['method=code']);
      expect(buttonsOf((await openPage(link, { userAgent: ANDROID_UA })).text)).toEqual(['method=code']);
    });

    it('a malformed national identity number shows the page again with 400, what was typed and the reason', async () => {
      const { link, scaStatus } = await payment({}, false);
      const answer = await identify(link, '1234');
      expect(answer.status).toBe(400);
      expect(inputOf(answer.text, 'psuId')).toContain('value="1234"');
      expect(alertOf(answer.text)).toBeTruthy();
      expect(await statusOf(scaStatus)).toBe('received');
    });

    it('a valid number that names no customer of the bank shows the page again with 400', async () => {
      const { link, scaStatus } = await payment({}, false);
      const answer = await identify(link, identityNumber());
      expect(answer.status).toBe(400);
      expect(alertOf(answer.text)).toBe('No customer of this bank has that national identity number');
      expect(await statusOf(scaStatus)).toBe('received');
    });
  });

  describe('app confirmation', () => {
    it('method=app on the identify page skips the code step: straight to the confirmation (scaMethodSelected)', async () => {
      const { link, id, path, scaStatus } = await payment(URIS);
      const browser = { userAgent: IPHONE_UA };
      const answer = await identify(link, psu.customerNumber, browser, 'app');
      expect(expectSeeOther(answer)).toBe(`/sca/${id}`);
      expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
      const confirmation = await openPage(link, browser);
      expect(formActionOf(confirmation.text)).toBe(`/sca/${id}/decision`);
      expect(buttonsOf(confirmation.text)).toEqual(['decision=approve', 'decision=reject']);
      expect((await scaMoves(server, id)).map((move) => move.to)).toEqual(['psuIdentified', 'psuAuthenticated', 'scaMethodSelected']);
      expect(expectSeeOther(await decide(link, 'approve', browser))).toBe(OK_URI);
      expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('ACTC');
    });

    it('method=app with Biometric-Authentication: false is refused with a 409 page and the PSU stays unidentified', async () => {
      const { link, scaStatus } = await payment({ 'biometric-authentication': 'false' });
      const answer = await identify(link, psu.customerNumber, { userAgent: IPHONE_UA }, 'app');
      expect(answer.status).toBe(409);
      expect(alertOf(answer.text)).toBe('Confirmation in the app is not offered here.');
      expect(await statusOf(scaStatus)).toBe('received');
    });

    it('method=app posted from a desktop user agent is taken as the code step: the code is still asked for', async () => {
      const { link, id, scaStatus } = await payment(URIS);
      const answer = await identify(link, psu.customerNumber, { userAgent: DESKTOP_UA }, 'app');
      expect(expectSeeOther(answer)).toBe(`/sca/${id}`);
      expect(await statusOf(scaStatus)).toBe('psuIdentified');
      expect(formActionOf((await openPage(link)).text)).toBe(`/sca/${id}/code`);
    });

    it('the project driver walks the app confirmation too: identify and decision, no code', async () => {
      const { link, path } = await payment(URIS);
      const journey = await walk(link, { useApp: true, userAgent: ANDROID_UA });
      expect(journey).toMatchObject({ redirectedTo: OK_URI, steps: ['identify', 'decision'] });
      expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('ACTC');
    });
  });

  describe('code page', () => {
    it('after identification the link shows the code form (field code) posting to /sca/{id}/code', async () => {
      const { link, id } = await payment();
      expect(expectSeeOther(await identify(link, psu.customerNumber))).toBe(`/sca/${id}`);
      const page = await openPage(link);
      expect(page.status).toBe(200);
      expect(formActionOf(page.text)).toBe(`/sca/${id}/code`);
      expect(inputOf(page.text, 'code')).toBeTruthy();
      expect(page.text).toContain('123456');
    });

    it('a wrong code shows the page again with 400 and the attempts left; the third wrong code fails with an outcome page', async () => {
      const { link, scaStatus, path } = await payment(URIS);
      expectSeeOther(await identify(link, psu.customerNumber));
      const first = await enterCode(link, '111111');
      expect(first.status).toBe(400);
      expect(alertOf(first.text)).toBe('Wrong code. 2 attempts left.');
      expect(await statusOf(scaStatus)).toBe('psuIdentified');
      const second = await enterCode(link, '222222');
      expect(second.status).toBe(400);
      expect(alertOf(second.text)).toBe('Wrong code. 1 attempt left.');
      const third = await enterCode(link, '333333');
      expect(third.status).toBe(200);
      expect(third.location).toBeUndefined();
      expect(alertOf(third.text)).toBe('The one-time code was wrong 3 times');
      expect(continueHrefOf(third.text)).toBe(NOK_URI);
      expect(await scaStatusOf(server.client, scaStatus)).toEqual({
        scaStatus: 'failed',
        psuMessage: 'The one-time code was wrong 3 times',
      });
      expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('RJCT');
    });

    it('the attempts left are told in Norwegian on a Norwegian page', async () => {
      const { link } = await payment();
      const nb = { language: 'nb' };
      expectSeeOther(await identify(link, psu.customerNumber, nb));
      const answer = await enterCode(link, '999999', nb);
      expect(answer.status).toBe(400);
      expect(alertOf(answer.text)).toBe('Feil kode. 2 forsøk igjen.');
    });

    it('the right code after a wrong one still goes on to the confirmation', async () => {
      const { link, scaStatus } = await payment();
      expectSeeOther(await identify(link, psu.customerNumber));
      expect((await enterCode(link, '654321')).status).toBe(400);
      expectSeeOther(await enterCode(link));
      expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
    });
  });

  describe('confirmation page', () => {
    it('shows what is approved (amount, creditor, the TPP) and buttons decision=approve and decision=reject', async () => {
      const { link, id } = await payment();
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      const page = await openPage(link);
      expect(formActionOf(page.text)).toBe(`/sca/${id}/decision`);
      expect(buttonsOf(page.text)).toEqual(['decision=approve', 'decision=reject']);
      expect(page.text).toContain('Company 123');
      expect(page.text).toContain('100.33');
      expect(page.text).toContain('PSDNO-FSA-123456789 AS');
    });

    it('a decision other than approve or reject is a 400 page and decides nothing', async () => {
      const { link, scaStatus } = await payment();
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      const page = await openPage(link);
      const answer = await postPage(`${link}/decision`, { csrf: csrfOf(page.text), decision: 'maybe' });
      expect(answer.status).toBe(400);
      expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
    });
  });

  describe('CSRF and steps', () => {
    it('a wrong or missing CSRF token on identify is a 403 page and changes nothing', async () => {
      const { link, id, scaStatus } = await payment();
      for (const fields of [{ csrf: 'forged' }, {}] as Record<string, string>[]) {
        const answer = await postPage(`${link}/identify`, { ...fields, psuId: psu.customerNumber, method: 'code' });
        expect(answer.status).toBe(403);
        expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(alertOf(answer.text)).toContain('did not come from this page');
      }
      expect(await statusOf(scaStatus)).toBe('received');
      expect(await scaMoves(server, id)).toEqual([]);
    });

    it("another authorisation's CSRF token is refused with 403", async () => {
      const mine = await payment();
      const other = await payment();
      const answer = await postPage(`${mine.link}/identify`, {
        csrf: csrfOf((await openPage(other.link)).text),
        psuId: psu.customerNumber,
        method: 'code',
      });
      expect(answer.status).toBe(403);
      expect(await statusOf(mine.scaStatus)).toBe('received');
    });

    it('a wrong CSRF token on the code step is 403 and neither authenticates nor counts as a wrong code', async () => {
      const { link, scaStatus } = await payment();
      expectSeeOther(await identify(link, psu.customerNumber));
      for (const code of ['123456', '000000', '000000', '000000']) {
        expect((await postPage(`${link}/code`, { csrf: 'forged', code })).status).toBe(403);
      }
      expect(await statusOf(scaStatus)).toBe('psuIdentified');
      expect((await enterCode(link, '000000')).status).toBe(400);
      expect(alertOf((await enterCode(link, '000000')).text)).toBe('Wrong code. 1 attempt left.');
    });

    it('a wrong CSRF token on the decision is 403: neither approved nor rejected, the payment stays RCVD', async () => {
      const { link, scaStatus, path } = await payment(URIS);
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      for (const decision of ['approve', 'reject']) {
        const answer = await postPage(`${link}/decision`, { csrf: 'forged', decision });
        expect(answer.status).toBe(403);
        expect(answer.location).toBeUndefined();
      }
      expect(await statusOf(scaStatus)).toBe('scaMethodSelected');
      expect((await paymentStatusOf(server.client, path)).transactionStatus).toBe('RCVD');
    });

    it('a post for a step already done, or not yet reached, is a 409 page and changes nothing', async () => {
      const { link, id, scaStatus } = await payment();
      const csrf = csrfOf((await openPage(link)).text);
      const early = await postPage(`${link}/code`, { csrf, code: '123456' });
      expect(early.status).toBe(409);
      expect(await statusOf(scaStatus)).toBe('received');
      expectSeeOther(await postPage(`${link}/identify`, { csrf, psuId: psu.customerNumber, method: 'code' }));
      const again = await postPage(`${link}/identify`, { csrf, psuId: psu.customerNumber, method: 'code' });
      expect(again.status).toBe(409);
      expect(alertOf(again.text)).toBe('This step is already done. Open the link again to continue.');
      const decision = await postPage(`${link}/decision`, { csrf, decision: 'approve' });
      expect(decision.status).toBe(409);
      expect(await statusOf(scaStatus)).toBe('psuIdentified');
      expect(await scaMoves(server, id)).toHaveLength(1);
    });

    it('an unknown link, or one that is not an id, is a 404 page', async () => {
      for (const path of [`/sca/${randomUUID()}`, '/sca/not-an-id', `/sca/${randomUUID()}/nowhere`]) {
        const page = await openPage(`${server.baseUrl}${path}`);
        expect(page.status).toBe(404);
        expectPageHeaders(page);
        expect(alertOf(page.text)).toBe('This link is not known. Start again from the app you came from.');
      }
      const post = await postPage(`${server.baseUrl}/sca/${randomUUID()}/identify`, { csrf: 'x', psuId: psu.customerNumber });
      expect(post.status).toBe(404);
    });

    it('a link with an id longer than any the server makes is the 404 page too, not the API’s JSON', async () => {
      const long = 'a'.repeat(150);
      for (const path of [`/sca/${long}`, `/sca/${long}/return`]) {
        const page = await openPage(`${server.baseUrl}${path}`);
        expect(page.status).toBe(404);
        expectPageHeaders(page);
        expect(alertOf(page.text)).toBe('This link is not known. Start again from the app you came from.');
      }
      const post = await postPage(`${server.baseUrl}/sca/${long}/identify`, { csrf: 'x', psuId: psu.customerNumber });
      expect(post.status).toBe(404);
      expectPageHeaders(post);
      const norwegian = await openPage(`${server.baseUrl}/sca/${long}`, { language: 'nb' });
      expect(norwegian.text).toContain('<html lang="nb">');
    });

    it('a link with a malformed percent-encoding is the page for a request not understood, with the API’s 400', async () => {
      const page = await openPage(`${server.baseUrl}/sca/%ZZ`);
      expect(page.status).toBe(400);
      expectPageHeaders(page);
      expect(alertOf(page.text)).toBe('The request could not be understood. Open the link again.');
    });

    it('a request with an Expect the server does not meet is the page of the API’s 417, not the page of a step done', async () => {
      const raw = await rawExchange(
        server.baseUrl,
        `GET /sca/${randomUUID()} HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`,
      );
      expect(raw).toMatch(/^HTTP\/1\.1 417 /);
      expect(raw).toContain('<!doctype html>');
      expect(alertOf(raw)).toBe('The request could not be understood. Open the link again.');
    });
  });

  describe('where the PSU goes', () => {
    it('after approval: 303 to TPP-Redirect-URI, with no-store and no referrer', async () => {
      const { link } = await payment(URIS);
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      const answer = await decide(link, 'approve');
      expect(answer).toMatchObject({ status: 303, location: OK_URI });
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    });

    it('after rejection: 303 to TPP-Nok-Redirect-URI', async () => {
      const { link } = await payment(URIS);
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      expect(await decide(link, 'reject')).toMatchObject({ status: 303, location: NOK_URI });
    });

    it('after rejection without TPP-Nok-Redirect-URI: 303 to TPP-Redirect-URI', async () => {
      const { link } = await payment({ 'tpp-redirect-uri': OK_URI });
      expect((await walk(link, { decision: 'reject' })).redirectedTo).toBe(OK_URI);
    });

    it('without any redirect URI the approval ends on an outcome page saying it is approved, with no link onward', async () => {
      const { link, scaStatus } = await payment();
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      const answer = await decide(link, 'approve');
      expect(answer.status).toBe(200);
      expect(answer.location).toBeUndefined();
      expect(answer.text).toContain('<p role="status">You have approved it.</p>');
      expect(continueHrefOf(answer.text)).toBeUndefined();
      expectPageHeaders(answer);
      expect(await statusOf(scaStatus)).toBe('finalised');
    });

    it('without any redirect URI the rejection ends on an outcome page with the reason', async () => {
      const { link } = await payment();
      expectSeeOther(await identify(link, psu.customerNumber));
      expectSeeOther(await enterCode(link));
      const answer = await decide(link, 'reject');
      expect(answer.status).toBe(200);
      expect(alertOf(answer.text)).toBe('The customer rejected it');
      expect(continueHrefOf(answer.text)).toBeUndefined();
    });

    it('opening the link of a finished authorisation shows its outcome with the way back', async () => {
      const { link } = await payment(URIS);
      await walk(link);
      const page = await openPage(link);
      expect(page.status).toBe(200);
      expect(page.text).toContain('You have approved it.');
      expect(continueHrefOf(page.text)).toBe(OK_URI);
    });

    it('the project driver ends at TPP-Redirect-URI after identify, code and decision', async () => {
      const { link } = await payment(URIS);
      expect(await walk(link)).toMatchObject({ redirectedTo: OK_URI, steps: ['identify', 'code', 'decision'] });
    });
  });

  describe('page headers and language', () => {
    it('every step page carries no-store, the CSP (form-action to the redirect origins), DENY framing and no referrer', async () => {
      const { link } = await payment(URIS);
      const origins = ['https://tpp.example', 'https://nok.tpp.example'];
      expectPageHeaders(await openPage(link), origins);
      expectSeeOther(await identify(link, psu.customerNumber));
      expectPageHeaders(await openPage(link), origins);
      expectSeeOther(await enterCode(link));
      expectPageHeaders(await openPage(link), origins);
      const forbidden = await postPage(`${link}/decision`, { csrf: 'forged', decision: 'approve' });
      expectPageHeaders(forbidden);
    });

    it("the CSP's form-action names each redirect origin once, and only 'self' without redirect URIs", async () => {
      const same = await payment({ 'tpp-redirect-uri': OK_URI, 'tpp-nok-redirect-uri': 'https://tpp.example/other' });
      expectPageHeaders(await openPage(same.link), ['https://tpp.example']);
      const none = await payment();
      expectPageHeaders(await openPage(none.link));
    });

    it('the outcome page of a failure carries the headers too', async () => {
      const { link } = await payment(URIS);
      expectSeeOther(await identify(link, psu.customerNumber));
      await enterCode(link, '000001');
      await enterCode(link, '000002');
      const outcome = await enterCode(link, '000003');
      expect(outcome.status).toBe(200);
      expectPageHeaders(outcome);
    });

    it.each(['nb', 'nb-NO', 'no', 'nb-NO,nb;q=0.9,en;q=0.5'])(
      'Accept-Language %s gives the Norwegian page (html lang="nb")',
      async (language) => {
        const { link } = await payment();
        const page = await openPage(link, { language });
        expect(page.text).toContain('<html lang="nb">');
        expect(page.text).toContain('<h1>Logg inn</h1>');
        expect(page.text).toContain('Fødselsnummer (11 siffer)');
      },
    );

    it.each([undefined, 'en', 'en-GB', 'de'])('Accept-Language %s gives the English page', async (language) => {
      const { link } = await payment();
      const page = await openPage(link, language === undefined ? {} : { language });
      expect(page.text).toContain('<html lang="en">');
      expect(page.text).toContain('<h1>Log in</h1>');
    });

    it('the code and confirmation pages and the failure reason are Norwegian too', async () => {
      const { link } = await payment(URIS);
      const nb = { language: 'nb' };
      expectSeeOther(await identify(link, psu.customerNumber, nb));
      expect((await openPage(link, nb)).text).toContain('Skriv inn engangskoden');
      expectSeeOther(await enterCode(link, '123456', nb));
      const confirmation = (await openPage(link, nb)).text;
      expect(confirmation).toContain('<html lang="nb">');
      expect(confirmation).toContain('>Godkjenn</button>');
      expect(confirmation).toContain('>Avvis</button>');
    });
  });
});
