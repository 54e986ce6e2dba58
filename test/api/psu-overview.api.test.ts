/**
 * The PSU's own page of consents and payments (`/psu/consents`, docs/design.md §2b): the PSU logs in
 * through the bank's authenticator, sees the consents it gave and the payments TPPs started for it,
 * and revokes a consent: revokedByPsu on the TPP's reads, which are refused from then on. Only the
 * logged-in PSU's own consents, only with the visit's cookie and CSRF token. In the sandbox a visit
 * starts only from a link the TPP obtained with a signed request (`POST /v1/sandbox/psu-page-links`),
 * on that TPP's sandbox bank: the seeded PSU-IDs and the code are every TPP's, the link is not.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBerlinGroupSchema } from '../support/berlin-group-schema.js';
import { approvedConsent, consentBody, consentStatusOf, detailedAccess, pageText } from '../support/consents.js';
import { DIALECTS } from '../support/databases.js';
import { createFakeIdp } from '../support/fake-idp.js';
import { created, expectError, initiate, NDCT, ndctBody, privatePsu, type Psu } from '../support/payments.js';
import { DEFAULT_TPP, logIn, openLink, overviewUrl, pageLink, postForm, psuBrowser, revocableOf } from '../support/psu-overview.js';
import { csrfOf, decide, expectSeeOther, identify, openPage, postPage, walk } from '../support/sca.js';
import { rawExchange } from '../support/raw-http.js';
import { IN_MEMORY_BANK_ENV, PRODUCTION_ENV, startTestServer, type TestServer } from '../support/test-server.js';

describe.each(DIALECTS)('the PSU page of consents (%s)', (dialect) => {
  let server: TestServer;
  /** How far the server's clock is ahead of the real one (a link's expiry). */
  let shiftMs = 0;
  beforeAll(async () => {
    server = await startTestServer({ dialect, now: () => new Date(Date.now() + shiftMs) });
  });
  afterAll(() => server.close());

  const approve = (psu: Psu, client = server.client) =>
    approvedConsent(client, consentBody(detailedAccess(psu.account)), psu.headers, (link) => walk(link));
  const readAccounts = (consentId: string, client = server.client) =>
    client.get<any>('/v1/accounts', { headers: { 'consent-id': consentId } });
  const storedStatus = async (consentId: string) =>
    (await server.database.db.selectFrom('consent').select('status').where('id', '=', consentId).executeTakeFirstOrThrow()).status;

  it('asks a browser without a logged-in visit to log in, and shows nothing of any PSU', async () => {
    const browser = psuBrowser();
    const opened = await openPage((await pageLink(server.client)).href, browser);
    expect(opened.status).toBe(303);
    expect(String(opened.headers['set-cookie'])).toMatch(
      /^xs2a_psu_session=[A-Za-z0-9_-]{43}; Path=\/psu\/consents; HttpOnly; SameSite=Lax$/,
    );
    const page = await openPage(overviewUrl(server), browser);
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/psu/consents/login"');
    // The bank is the link's: the form names no TPP.
    expect(page.text).not.toContain('name="tpp"');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-frame-options']).toBe('DENY');
    // Identified but not yet past the code: still no list, and no revocation.
    const psu = await privatePsu(server.client);
    const consentId = await approve(psu);
    expect((await postForm(server, '/login', { psuId: psu.customerNumber }, browser)).status).toBe(303);
    const code = await openPage(overviewUrl(server), browser);
    expect(code.text).toContain('action="/psu/consents/code"');
    expect(code.text).not.toContain(consentId);
    const early = await postPage(overviewUrl(server, '/revoke'), { csrf: csrfOf(code.text), consentId }, browser);
    expect(early.status).toBe(403);
    expect(await storedStatus(consentId)).toBe('valid');
  });

  it('answers a request with an Expect the server does not meet with the page of the API’s 417, not the page of a consent no longer valid', async () => {
    const raw = await rawExchange(
      server.baseUrl,
      'GET /psu/consents HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toMatch(/^HTTP\/1\.1 417 /);
    expect(raw).toContain('<!doctype html>');
    expect(raw).toContain('The request could not be understood.');
  });

  it('refuses a wrong PSU-ID, a PSU of another sandbox bank and a wrong code, and ends the visit at the third', async () => {
    const psu = await privatePsu(server.client);
    // Another TPP's link opens its own sandbox bank, where this TPP's PSU is nobody.
    const nobody = await server.newTpp('PSDNO-FSA-NOBODY');
    const there = psuBrowser();
    await openLink(server, there, nobody.client);
    const elsewhere = await postForm(server, '/login', { psuId: psu.customerNumber, tpp: DEFAULT_TPP }, there);
    expect(elsewhere.status).toBe(400);
    expect(pageText(elsewhere.text)).toContain('No customer of this bank has that national identity number');

    const browser = psuBrowser();
    await openLink(server, browser);
    const malformed = await postForm(server, '/login', { psuId: '12345678901' }, browser);
    expect(malformed.status).toBe(400);
    expect((await postForm(server, '/login', { psuId: psu.customerNumber }, browser)).status).toBe(303);
    const first = await postForm(server, '/code', { code: '000000' }, browser);
    expect(first.status).toBe(400);
    expect(pageText(first.text)).toContain('Wrong code. 2 attempts left.');
    expect((await postForm(server, '/code', { code: '000000' }, browser)).status).toBe(400);
    const third = await postForm(server, '/code', { code: '000000' }, browser);
    expect(pageText(third.text)).toContain('The one-time code was wrong 3 times');
    // The visit is over: the next page starts a new one at the login, on the same sandbox bank.
    const again = await openPage(overviewUrl(server), browser);
    expect(again.text).toContain('action="/psu/consents/login"');
    // From the code page the PSU may start again, with another PSU-ID.
    expect((await postForm(server, '/login', { psuId: psu.customerNumber }, browser)).status).toBe(303);
    expect((await openPage(overviewUrl(server), browser)).text).toContain('action="/psu/consents/logout"');
    expect((await postForm(server, '/logout', {}, browser)).status).toBe(303);
    expect((await openPage(overviewUrl(server), browser)).text).toContain('action="/psu/consents/login"');
  });

  it('ends the visit at the third wrong code even when the PSU-ID is posted again in between', async () => {
    const psu = await privatePsu(server.client);
    const other = await privatePsu(server.client);
    const browser = psuBrowser();
    await openLink(server, browser);
    expect((await postForm(server, '/login', { psuId: psu.customerNumber }, browser)).status).toBe(303);
    expect((await postForm(server, '/code', { code: '000000' }, browser)).status).toBe(400);
    expect((await postForm(server, '/code', { code: '000000' }, browser)).status).toBe(400);
    // A second identify, of the same PSU or another, changes neither the PSU nor the count.
    for (const psuId of [psu.customerNumber, other.customerNumber]) {
      const again = await postForm(server, '/login', { psuId }, browser);
      expect(again.status).toBe(303);
      expect((await openPage(overviewUrl(server), browser)).text).toContain('action="/psu/consents/code"');
    }
    const third = await postForm(server, '/code', { code: '000000' }, browser);
    expect(third.status).toBe(400);
    expect(pageText(third.text)).toContain('The one-time code was wrong 3 times');
    expect((await openPage(overviewUrl(server), browser)).text).toContain('action="/psu/consents/login"');
  });

  it("opens on a sandbox bank only by its TPP's link: without one it explains where the link comes from, and offers no login", async () => {
    for (const language of ['en', 'nb']) {
      // `?tpp=` no longer chooses a bank: without a link there is no visit and no form.
      const page = await openPage(overviewUrl(server, `?tpp=${DEFAULT_TPP}`), psuBrowser(language));
      expect(page.status).toBe(200);
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.text).not.toContain('<form');
      expect(pageText(page.text)).toContain('POST /v1/sandbox/psu-page-links');
      expect(pageText(page.text)).toContain(
        language === 'en' ? 'In the sandbox each TPP has a sandbox bank of its own.' : 'I sandkassen har hver TPP sin egen sandkassebank.',
      );
    }
    // A form post without a visit changes nothing.
    const browser = psuBrowser();
    const blind = await postPage(overviewUrl(server, '/login'), { csrf: 'x', psuId: '13039319955', tpp: DEFAULT_TPP }, browser);
    expect(blind.status).toBe(403);
  });

  it("gives a TPP a link of its own: 201, only the token's SHA-256 stored, 24 hours, signed requests only", async () => {
    const before = Date.now();
    const response = await server.client.post<any>('/v1/sandbox/psu-page-links', undefined);
    expect(response.status, response.text).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['expiresAt', 'href']);
    const match = /^(.*)\/psu\/consents\?access=([A-Za-z0-9_-]{43})$/.exec(response.body.href);
    expect(match?.[1]).toBe(server.config.publicUrl);
    const token = match![2]!;
    const expiresAt = Date.parse(response.body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 1000);
    const rows = await server.database.db.selectFrom('psu_page_link').selectAll().execute();
    expect(rows.some((row) => row.tpp_id === DEFAULT_TPP)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(token);
    // The audit log has it, by the token's hash, with the request that asked for it.
    const issued = await server.database.db
      .selectFrom('audit_event')
      .select(['actor_id', 'request_id'])
      .where('action', '=', 'psu-page-link.issued')
      .where('resource_id', '=', createHash('sha256').update(token).digest('hex'))
      .executeTakeFirstOrThrow();
    expect(issued).toEqual({ actor_id: DEFAULT_TPP, request_id: response.headers['x-request-id'] });
    // Each call is a new link.
    expect((await pageLink(server.client)).href).not.toBe(response.body.href);

    const unsigned = await server.anonymous.post<any>('/v1/sandbox/psu-page-links', undefined);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('SIGNATURE_MISSING');
    // Any TPP role will do.
    const aisp = await server.newTpp('PSDNO-FSA-AISPONLY', ['PSP_AI']);
    expect((await aisp.client.post<any>('/v1/sandbox/psu-page-links', undefined)).status).toBe(201);
    const document = (await server.anonymous.get<any>('/openapi.json')).body;
    expect(document.paths['/v1/sandbox/psu-page-links'].post.operationId).toBe('createSandboxPsuPageLink');
  });

  it("refuses a forged, a cut and an expired link with the same page and 403, and changes nothing of the browser's visit", async () => {
    const psu = await privatePsu(server.client);
    const consentId = await approve(psu);
    const browser = psuBrowser();
    await logIn(server, psu.customerNumber, browser);
    const { href } = await pageLink(server.client);
    const forged = `${overviewUrl(server)}?access=${'A'.repeat(43)}`;
    const cut = href.slice(0, -1);
    const empty = `${overviewUrl(server)}?access=`;
    for (const url of [forged, cut, empty]) {
      for (const visitor of [browser, psuBrowser('nb')]) {
        const refused = await openPage(url, visitor);
        expect(refused.status, url).toBe(403);
        expect(refused.headers['set-cookie']).toBeUndefined();
        expect(refused.text).not.toContain('<form');
        expect(pageText(refused.text)).toContain('POST /v1/sandbox/psu-page-links');
        expect(pageText(refused.text)).toContain(
          visitor === browser ? 'This link is unknown or has expired.' : 'Denne lenken er ukjent eller utløpt.',
        );
      }
    }
    // The logged-in visit is as it was.
    expect(revocableOf((await openPage(overviewUrl(server), browser)).text)).toEqual([consentId]);

    shiftMs = 24 * 3_600_000 + 1000;
    try {
      const late = await openPage(href, psuBrowser());
      expect(late.status).toBe(403);
      expect(late.headers['set-cookie']).toBeUndefined();
      expect(pageText(late.text)).toContain('This link is unknown or has expired.');
    } finally {
      shiftMs = 0;
    }
    expect(await storedStatus(consentId)).toBe('valid');
  });

  it("keeps each TPP's link to its own bank: another TPP's link never shows this TPP's PSUs' consents", async () => {
    const psu = await privatePsu(server.client);
    const consentId = await approve(psu);
    const tppB = await server.newTpp('PSDNO-FSA-LINKTPP');
    // The PSU-ID is a customer in both sandbox banks (as the seeded ones are).
    const namesake = await tppB.client.post<any>('/v1/sandbox/customers', {
      customerNumber: psu.customerNumber,
      customerType: 'PRIVATE',
      customerName: 'Namesake',
    });
    expect(namesake.status, namesake.text).toBe(201);
    const browser = psuBrowser();
    const page = await logIn(server, psu.customerNumber, browser, tppB.client);
    expect(page.text).not.toContain(consentId);
    expect(revocableOf(page.text)).toEqual([]);
    expect((await postForm(server, '/revoke', { consentId }, browser)).status).toBe(404);
    expect(await storedStatus(consentId)).toBe('valid');

    // A posted `tpp` field does not change the bank either.
    const other = psuBrowser();
    await openLink(server, other, tppB.client);
    expect((await postForm(server, '/login', { psuId: psu.customerNumber, tpp: DEFAULT_TPP }, other)).status).toBe(303);
    expect((await postForm(server, '/code', { code: '123456' }, other)).status).toBe(303);
    expect((await openPage(overviewUrl(server), other)).text).not.toContain(consentId);

    // This TPP's link, opened in the same browser, moves it to a new visit on this TPP's bank.
    const mine = await openLink(server, browser);
    expect(mine.text).toContain('action="/psu/consents/login"');
    expect(revocableOf((await logIn(server, psu.customerNumber, browser)).text)).toEqual([consentId]);
  });

  it('lists the consents the PSU gave and the payments started for it, in English and Bokmål', async () => {
    const psu = await privatePsu(server.client);
    const consentId = await approve(psu);
    const payment = await created(initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const other = await privatePsu(server.client);
    const othersConsent = await approve(other);

    const browser = psuBrowser('en');
    const en = await logIn(server, psu.customerNumber, browser);
    const text = pageText(en.text);
    expect(text).toContain('Access you have given to apps');
    expect(text).toContain(`${DEFAULT_TPP} AS`);
    expect(text).toContain(`${psu.account.iban} (account details, balances, transactions)`);
    expect(text).toContain('Status Active');
    expect(revocableOf(en.text)).toEqual([consentId]);
    expect(en.text).not.toContain(othersConsent);
    expect(en.text).toContain(`data-payment-id="${payment.paymentId}"`);
    expect(text).toContain('To Company 123');
    expect(text).toContain('Amount NOK 100.33');
    expect(text).toContain('Status Waiting for your approval');
    expect(text).toContain(`Logged in as ${'\u2022'.repeat(7)}${psu.customerNumber.slice(-4)}`);

    const nb = pageText((await openPage(overviewUrl(server), { ...browser, language: 'nb' })).text);
    expect(nb).toContain('Tilganger du har gitt til apper');
    expect(nb).toContain('(kontoopplysninger, saldo, transaksjoner)');
    expect(nb).toContain('Status Aktiv');
    expect(nb).toContain('Trekk tilbake tilgangen');
    expect(nb).toContain('Beløp 100,33 kr');
    expect(nb).toContain('Status Venter på godkjenning');
  });

  it("revokes a consent: revokedByPsu on the TPP's status, its reads refused, the change audited as the PSU's", async () => {
    const psu = await privatePsu(server.client);
    const consentId = await approve(psu);
    expect((await readAccounts(consentId)).status).toBe(200);
    const browser = psuBrowser();
    await logIn(server, psu.customerNumber, browser);

    const revoked = await postForm(server, '/revoke', { consentId }, browser);
    expect(revoked.status, revoked.text).toBe(303);
    expect(revoked.location).toBe('/psu/consents?done=revoked');
    expect(await consentStatusOf(server.client, consentId)).toBe('revokedByPsu');
    expectBerlinGroupSchema('consentStatusResponse-200', (await server.client.get<any>(`/v1/consents/${consentId}/status`)).body);
    const information = await server.client.get<any>(`/v1/consents/${consentId}`);
    expect(information.body.consentStatus).toBe('revokedByPsu');
    expectBerlinGroupSchema('consentInformationResponse-200_json', information.body);
    expectError(await readAccounts(consentId), 401, 'CONSENT_INVALID', 'Consent-ID');
    const audit = await server.database.db
      .selectFrom('audit_event')
      .selectAll()
      .where('resource_id', '=', consentId)
      .where('action', '=', 'consent.status-changed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect({ type: audit.actor_type, id: audit.actor_id }).toEqual({ type: 'psu', id: psu.customerNumber });
    expect(JSON.parse(audit.details)).toMatchObject({ from: 'valid', to: 'revokedByPsu' });

    const after = await openPage(overviewUrl(server, '?done=revoked'), browser);
    expect(pageText(after.text)).toContain('The access is revoked.');
    expect(pageText(after.text)).toContain('Status Revoked by you');
    expect(revocableOf(after.text)).toEqual([]);
    // Once is enough: a second post of the same form changes nothing.
    const twice = await postForm(server, '/revoke', { consentId }, browser);
    expect(twice.status).toBe(409);
    expect(pageText(twice.text)).toContain('That access has already ended.');
  });

  it("refuses another PSU's consent, another TPP's sandbox bank's and an unknown id: 404, and nothing changes", async () => {
    const psu = await privatePsu(server.client);
    const other = await privatePsu(server.client);
    const othersConsent = await approve(other);
    const browser = psuBrowser();
    await logIn(server, psu.customerNumber, browser);
    for (const consentId of [othersConsent, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const refused = await postForm(server, '/revoke', { consentId }, browser);
      expect(refused.status, consentId).toBe(404);
      expect(pageText(refused.text)).toContain('You have given no such access.');
    }
    expect(await storedStatus(othersConsent)).toBe('valid');

    // The same PSU-ID in another TPP's sandbox bank is another PSU: it sees and revokes nothing of the first bank's.
    const tppB = await server.newTpp('PSDNO-FSA-OTHERTPP');
    const namesakeCustomer = await tppB.client.post<any>('/v1/sandbox/customers', {
      customerNumber: other.customerNumber,
      customerType: 'PRIVATE',
      customerName: 'Namesake',
    });
    expect(namesakeCustomer.status, namesakeCustomer.text).toBe(201);
    const namesake = psuBrowser();
    const page = await logIn(server, other.customerNumber, namesake, tppB.client);
    expect(page.text).not.toContain(othersConsent);
    expect((await postForm(server, '/revoke', { consentId: othersConsent }, namesake)).status).toBe(404);
    expect(await storedStatus(othersConsent)).toBe('valid');
  });

  it("changes nothing on a post without the visit's CSRF token or without its cookie", async () => {
    const psu = await privatePsu(server.client);
    const consentId = await approve(psu);
    const browser = psuBrowser();
    const page = await logIn(server, psu.customerNumber, browser);
    const wrongToken = await postPage(overviewUrl(server, '/revoke'), { csrf: 'x'.repeat(32), consentId }, browser);
    expect(wrongToken.status).toBe(403);
    const noToken = await postPage(overviewUrl(server, '/revoke'), { consentId }, browser);
    expect(noToken.status).toBe(403);
    // Another site's form carries the right token at best, never this browser's cookie.
    const crossSite = await postPage(overviewUrl(server, '/revoke'), { csrf: csrfOf(page.text), consentId }, psuBrowser());
    expect(crossSite.status).toBe(403);
    expect(await storedStatus(consentId)).toBe('valid');
    expect((await readAccounts(consentId)).status).toBe(200);
  });

  it('gives the visit a new cookie at login: the cookie it had before is worth nothing after', async () => {
    const psu = await privatePsu(server.client);
    const browser = psuBrowser();
    const start = await openPage((await pageLink(server.client)).href, browser);
    const before = String(start.headers['set-cookie']).split(';')[0]!;
    await logIn(server, psu.customerNumber, browser);
    const stale = await openPage(overviewUrl(server), { language: 'en', cookies: jarWith(before) });
    expect(stale.text).not.toContain('Logged in as');
    expect(pageText(stale.text)).toContain('POST /v1/sandbox/psu-page-links');
    // Logging out ends the visit (a new one starts on the same sandbox bank).
    expect((await postForm(server, '/logout', {}, browser)).status).toBe(303);
    expect((await openPage(overviewUrl(server), browser)).text).toContain('action="/psu/consents/login"');
  });

  /** A browser holding only this cookie (`name=value`). */
  function jarWith(cookie: string) {
    const jar = psuBrowser().cookies;
    jar.store(new URL(overviewUrl(server)), `${cookie}; Path=/psu/consents`);
    return jar;
  }
});

describe.each(DIALECTS)('the PSU page of consents with login at the bank’s IdP (%s)', (dialect) => {
  const idp = createFakeIdp();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, psuAuthenticator: idp.authenticator });
  });
  afterAll(() => server.close());

  it('logs the PSU in by the IdP round trip and lets it revoke its consent', async () => {
    const psu = await privatePsu(server.client);
    const consentId = await approvedConsent(server.client, consentBody(detailedAccess(psu.account)), psu.headers, async (link) => {
      const browser = psuBrowser();
      expectSeeOther(await identify(link, '', browser));
      expectSeeOther(await openPage(idp.login(expectSeeOther(await openPage(link, browser))), browser));
      expect((await decide(link, 'approve', browser)).status).toBe(200);
    });
    const browser = psuBrowser();
    await openLink(server, browser);
    const login = await postForm(server, '/login', { psuId: psu.customerNumber }, browser);
    expect(login.status).toBe(303);
    expect(login.location).toMatch(/^https:\/\/idp\.bank\.example\/authorize\?/);
    // A forged assertion (another key) counts as a wrong login and logs nobody in.
    const forged = await openPage(idp.login(login.location!, { foreignKey: true }), browser);
    expect(forged.status).toBe(400);
    expect(pageText(forged.text)).toContain('The login was not accepted. 2 attempts left.');
    const retry = /id="external-login" href="([^"]+)"/.exec(forged.text)![1]!.replace(/&#38;/g, '&');
    const back = await openPage(idp.login(retry), browser);
    expect(back.status, back.text).toBe(303);
    const page = await openPage(overviewUrl(server), browser);
    expect(revocableOf(page.text)).toEqual([consentId]);
    expect((await postForm(server, '/revoke', { consentId }, browser)).status).toBe(303);
    expect(await consentStatusOf(server.client, consentId)).toBe('revokedByPsu');
  });

  it("refuses the IdP's return in a browser without the visit", async () => {
    const psu = await privatePsu(server.client);
    const browser = psuBrowser();
    await openLink(server, browser);
    const login = await postForm(server, '/login', { psuId: psu.customerNumber }, browser);
    const back = idp.login(login.location!);
    expect((await openPage(back, psuBrowser())).status).toBe(403);
  });
});

describe.each(DIALECTS)("the PSU page of consents in production, on the bank's adapter (%s)", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: PRODUCTION_ENV });
  });
  afterAll(() => server.close());

  it("asks for no TPP, lists the PSU's consents given to every TPP, and revokes one TPP's only", async () => {
    const psu = {
      customerNumber: IN_MEMORY_BANK_ENV.IN_MEMORY_BANK_PSU_ID,
      headers: { 'psu-id': IN_MEMORY_BANK_ENV.IN_MEMORY_BANK_PSU_ID },
    };
    const body = consentBody(detailedAccess({ bban: IN_MEMORY_BANK_ENV.IN_MEMORY_BANK_BBAN }));
    const first = await approvedConsent(server.client, body, psu.headers, (link) => walk(link));
    const other = await server.newTpp('PSDNO-FSA-222222222');
    const second = await approvedConsent(other.client, body, psu.headers, (link) => walk(link));

    const browser = psuBrowser();
    // No link in production: the page itself starts the visit, and an `access` parameter means nothing.
    const start = await openPage(overviewUrl(server, '?access=whatever'), browser);
    expect(start.status).toBe(200);
    expect(start.text).toContain('action="/psu/consents/login"');
    expect(start.text).not.toContain('name="tpp"');
    expect((await server.client.post<any>('/v1/sandbox/psu-page-links', undefined)).status).toBe(404);
    const page = await logIn(server, psu.customerNumber, browser, null);
    expect(revocableOf(page.text).sort()).toEqual([first, second].sort());
    expect(pageText(page.text)).toContain('PSDNO-FSA-222222222 AS');
    expect((await postForm(server, '/revoke', { consentId: second }, browser)).status).toBe(303);
    expect(await consentStatusOf(other.client, second)).toBe('revokedByPsu');
    expect(await consentStatusOf(server.client, first)).toBe('valid');
  });
});

describe.each(DIALECTS)('the PSU page of consents and the per-PSU code lock (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { XS2A_SCA_CODE_LOCK_ATTEMPTS: '2' } });
  });
  afterAll(() => server.close());

  it('counts wrong codes towards the lock of the SCA pages: while it holds, not even the right code logs in', async () => {
    const psu = await privatePsu(server.client);
    const browser = psuBrowser();
    await openLink(server, browser);
    expect((await postForm(server, '/login', { psuId: psu.customerNumber }, browser)).status).toBe(303);
    expect((await postForm(server, '/code', { code: '000000' }, browser)).status).toBe(400);
    const locked = await postForm(server, '/code', { code: '000001' }, browser);
    expect(locked.status).toBe(429);
    expect(pageText(locked.text)).toContain('Too many wrong one-time codes.');
    const right = await postForm(server, '/code', { code: '123456' }, browser);
    expect(right.status).toBe(429);
    expect((await openPage(overviewUrl(server), browser)).text).not.toContain('Logged in as');
    // The SCA pages see the same lock: the PSU's payment cannot be approved with the right code either.
    const payment = await created(initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }));
    const link = payment.response.body._links.scaRedirect.href as string;
    const sca = psuBrowser();
    expectSeeOther(await identify(link, '', sca));
    const code = await postPage(`${link}/code`, { csrf: csrfOf((await openPage(link, sca)).text), code: '123456' }, sca);
    expect(code.status).toBe(429);
  });
});
