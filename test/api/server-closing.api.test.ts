/**
 * What the server does with its connections when it closes (SIGTERM, `app.close()`): a request
 * being handled is answered in full, however long its handler takes, and its connection closed
 * after the answer; a request that arrives once
 * closing has begun is refused 503 with the error body; a request still arriving after the grace is
 * refused 503 too and its connection let go of, so that a client trickling a body cannot hold the
 * process open (Node stops enforcing the request timeout at `server.close()`).
 */
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { API_RELEASE } from '../../src/release/release-notes.js';
import { capturedLog, ERROR_LEVEL } from '../support/captured-log.js';
import { ndctBody, NDCT, privatePsu } from '../support/payments.js';
import { parseRawAnswer } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { wrappedCoreBanking } from '../support/wrapped-core-banking.js';

/** The grace of the servers under test: short, so that a trickled body outlasts it soon. */
const SHUTDOWN_GRACE_MS = 600;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('closing the server', () => {
  const log = capturedLog();
  let server: TestServer | undefined;
  afterEach(async () => {
    // Each test closes its server's app; the rest (database, files) goes here.
    await server?.close().catch(() => {});
    server = undefined;
  });

  /** Opens a connection to the server, writes `request` and collects everything answered until the server closes it. */
  function rawConnection(request: string): { socket: Socket; answer: Promise<string> } {
    const { port } = new URL(server!.baseUrl);
    const socket = connect({ port: Number(port), host: '127.0.0.1' }, () => socket.write(request));
    const answer = new Promise<string>((resolve, reject) => {
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
    });
    return { socket, answer };
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
    const { socket, answer } = rawConnection('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
    await sleep(100);
    const closed = server.app.close();
    socket.write(`X-Request-ID: ${randomUUID()}\r\n\r\n`);
    expectClosingRefusal(await answer);
    await closed;
  });

  it('refuses a request whose body still trickles after the grace, 503, and lets go of its connection', async () => {
    server = await startTestServer({ shutdownGraceMs: SHUTDOWN_GRACE_MS, logger: log.logger });
    const { socket, answer } = rawConnection(
      `POST /v1/funds-confirmations HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: ${randomUUID()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    // A byte every 100 ms: never idle, and never all there.
    const drip = setInterval(() => socket.writable && socket.write(' '), 100);
    try {
      await sleep(300);
      const started = Date.now();
      await server.app.close();
      // Before, the close waited for as long as the client kept trickling.
      expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS + 3_000);
      expectClosingRefusal(await answer);
    } finally {
      clearInterval(drip);
    }
    expect(log.lines().filter((line) => line.level >= ERROR_LEVEL)).toEqual([]);
  });

  it('lets go, after the grace, of a connection whose request headers never end', async () => {
    server = await startTestServer({ shutdownGraceMs: SHUTDOWN_GRACE_MS });
    const { socket, answer } = rawConnection('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    try {
      await sleep(300);
      const started = Date.now();
      await server.app.close();
      expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS + 3_000);
      // No request to answer: the connection is closed without one.
      expect(await answer).toBe('');
    } finally {
      clearInterval(drip);
    }
  });
});
