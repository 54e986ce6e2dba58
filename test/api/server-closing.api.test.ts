/**
 * What the server does with its connections when it closes (SIGTERM, `app.close()`): a request
 * being handled is answered in full, however long its handler takes, and its connection closed
 * after the answer; a request that arrives once closing has begun is refused 503 with the error
 * body (an HTML page on the PSU's pages; `/health/ready` says it is not ready); a request whose
 * body is still arriving after the grace is refused 503 too and never carried out, and its
 * connection let go of, so that a client trickling a body cannot hold the process open (Node
 * stops enforcing the request timeout at `server.close()`).
 */
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { signRequest } from '../../src/client/request-signer.js';
import { API_RELEASE } from '../../src/release/release-notes.js';
import { capturedLog, ERROR_LEVEL } from '../support/captured-log.js';
import { ndctBody, NDCT, privatePsu } from '../support/payments.js';
import { parseRawAnswer } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { wrappedCoreBanking } from '../support/wrapped-core-banking.js';

/** The grace of the servers under test: short, so that a trickled body outlasts it soon. */
const SHUTDOWN_GRACE_MS = 600;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !condition(); await sleep(10)) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`);
  }
}

describe('closing the server', () => {
  const log = capturedLog();
  const errorsLogged = () => log.lines().filter((line) => line.level >= ERROR_LEVEL);
  let server: TestServer | undefined;
  afterEach(async () => {
    // Each test closes its server's app; the rest (database, files) goes here.
    await server?.close().catch(() => {});
    server = undefined;
  });

  /**
   * Opens a connection to the server and writes `request`; resolves once the server has read it
   * all (so that it knows a request has begun), with everything the server answers until it
   * closes the connection.
   */
  async function rawConnection(
    request: string | Buffer,
    options: { allowHalfOpen?: boolean } = {},
  ): Promise<{ socket: Socket; answer: Promise<string>; received: () => string }> {
    const accepted = new Promise<Socket>((resolve) => server!.app.server.once('connection', resolve));
    const { port } = new URL(server!.baseUrl);
    const socket = connect({ port: Number(port), host: '127.0.0.1', ...options }, () => socket.write(request));
    let received = '';
    const answer = new Promise<string>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
    });
    const serverSide = await accepted;
    await until(() => serverSide.bytesRead >= Buffer.byteLength(request), 'the server reading the request');
    return { socket, answer, received: () => received };
  }

  function expectClosingRefusal(answer: string): void {
    const { status, headers, body } = parseRawAnswer(answer);
    expect(status, answer).toBe(503);
    expect(body, answer).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      tppMessages: [{ category: 'ERROR', code: 'SERVICE_UNAVAILABLE' }],
    });
    expect(headers['api-release']).toBe(API_RELEASE);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['connection']).toBe('close');
  }

  it('answers a request being handled in full, even past the grace, and closes once it is answered', async () => {
    let entered: () => void = () => {};
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    let slow = false;
    server = await startTestServer({
      shutdownGraceMs: SHUTDOWN_GRACE_MS,
      coreBanking: (sandbox) =>
        wrappedCoreBanking(sandbox, {
          findAccountWithPermission:
            (original) =>
            async (...args) => {
              if (slow) {
                entered();
                // Three graces: the sweep comes and goes while the handler works.
                await sleep(3 * SHUTDOWN_GRACE_MS);
              }
              return original!(...args);
            },
        }),
    });
    const psu = await privatePsu(server.client);
    slow = true;
    const initiation = server.client.post<any>(`/v1/payments/${NDCT}`, ndctBody(psu.account), { headers: psu.headers });
    await inHandler;
    const closed = server.app.close();
    const answer = await initiation;
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.transactionStatus).toBe('RCVD');
    // The client is told not to send more on this connection: it closes after this answer.
    expect(answer.headers.connection).toBe('close');
    await closed;
  });

  it('refuses a request that arrives once closing has begun, 503 with the error body', async () => {
    server = await startTestServer({ shutdownGraceMs: SHUTDOWN_GRACE_MS });
    // The headers begin before the close and end after it: the request arrives while closing.
    const { socket, answer } = await rawConnection('GET /v1/accounts HTTP/1.1\r\nHost: localhost\r\n');
    const closed = server.app.close();
    socket.write(`X-Request-ID: ${randomUUID()}\r\n\r\n`);
    expectClosingRefusal(await answer);
    await closed;
  });

  it('answers /health/ready 503 "unavailable" while closing, /health/live 200, and the PSU pages a 503 page', async () => {
    server = await startTestServer({ shutdownGraceMs: SHUTDOWN_GRACE_MS, logger: log.logger });
    const before = errorsLogged().length;
    const started = [];
    for (const path of ['/health/ready', '/health/live', '/sca/payments/not-a-payment', '/psu/consents']) {
      started.push(await rawConnection(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept-Language: en\r\n`));
    }
    const closed = server.app.close();
    for (const { socket } of started) socket.write('\r\n');
    const [ready, live, sca, overview] = await Promise.all(started.map(({ answer }) => answer));
    expect(parseRawAnswer(ready!)).toMatchObject({ status: 503, body: { status: 'unavailable' } });
    expect(parseRawAnswer(live!)).toMatchObject({ status: 200, body: { status: 'ok' } });
    for (const page of [sca!, overview!]) {
      expect(parseRawAnswer(page).status, page).toBe(503);
      expect(parseRawAnswer(page).headers['content-type']).toMatch(/^text\/html/);
      expect(page).toContain('not available just now');
    }
    await closed;
    // A shutdown is not an error of the server's.
    expect(errorsLogged().slice(before)).toEqual([]);
  });

  it('refuses a request whose body still trickles after the grace, 503, and lets go of its connection', async () => {
    server = await startTestServer({ shutdownGraceMs: SHUTDOWN_GRACE_MS, logger: log.logger });
    const before = errorsLogged().length;
    const { socket, answer } = await rawConnection(
      `POST /v1/funds-confirmations HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: ${randomUUID()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    // A byte every 100 ms: never idle, and never all there.
    const drip = setInterval(() => socket.writable && socket.write(' '), 100);
    try {
      const started = Date.now();
      await server.app.close();
      // Before, the close waited for as long as the client kept trickling.
      expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS + 3_000);
      expectClosingRefusal(await answer);
    } finally {
      clearInterval(drip);
    }
    expect(errorsLogged().slice(before)).toEqual([]);
  });

  it('never carries out a request refused while its body arrived, even when the rest of it arrives after the refusal', async () => {
    server = await startTestServer({ shutdownGraceMs: SHUTDOWN_GRACE_MS, logger: log.logger });
    const before = errorsLogged().length;
    const { credentials, client } = await server.newTpp('PSDNO-FSA-918273645');
    const psu = await privatePsu(client);
    const path = `/v1/payments/${NDCT}`;
    const body = Buffer.from(JSON.stringify(ndctBody(psu.account)));
    const headers = signRequest(
      { method: 'POST', path, headers: { 'content-type': 'application/json', ...psu.headers }, body },
      credentials,
    );
    const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}Content-Length: ${body.length}\r\n\r\n`;
    // All but the body's last byte, then the close; the last byte once the refusal came, on a
    // connection the client keeps open for sending after the server closed its side.
    const { socket, answer, received } = await rawConnection(Buffer.concat([Buffer.from(head), body.subarray(0, -1)]), {
      allowHalfOpen: true,
    });
    const closed = server.app.close();
    await until(() => received().includes('\r\n\r\n{'), 'the refusal');
    socket.write(body.subarray(-1));
    // Time for a handler to run, if one were called.
    await sleep(500);
    socket.end();
    expectClosingRefusal(await answer);
    await closed;
    // The request's X-Request-ID was never claimed, and no payment was made.
    const requestId = headers['x-request-id']!;
    const db = server.database.db;
    expect(await db.selectFrom('idempotency_record').select('request_id').where('request_id', '=', requestId).execute()).toEqual([]);
    expect(await db.selectFrom('payment').select('id').where('request_id', '=', requestId).execute()).toEqual([]);
    expect(errorsLogged().slice(before)).toEqual([]);
  });

  it('lets go, after the grace, of a connection whose request headers never end', async () => {
    server = await startTestServer({ shutdownGraceMs: SHUTDOWN_GRACE_MS });
    const { socket, answer } = await rawConnection('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    try {
      const started = Date.now();
      await server.app.close();
      expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS + 3_000);
      // No request to answer: the connection is closed without an answer.
      expect(await answer).toBe('');
    } finally {
      clearInterval(drip);
    }
  });
});
