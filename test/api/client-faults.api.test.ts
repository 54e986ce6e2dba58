/**
 * What a client gets wrong is answered as the client's fault, with the error body, and never
 * logged as an error of ours: a request without a valid `Host` (RFC 9112 §3.2), a body trickled in
 * slower than the server waits for, a body cut off half-way, a form post on the PSU's page without
 * a live visit. An error-level log line is what an operator is paged for.
 */
import { connect, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_RELEASE } from '../../src/release/release-notes.js';
import { capturedLog, ERROR_LEVEL } from '../support/captured-log.js';
import { parseRawAnswer as parsed, rawExchange } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The request timeout of the server under test: short, so that a trickled body meets it soon. */
const REQUEST_TIMEOUT_MS = 1_500;

function expectRefusal(answer: string, status: number, code: string, path?: string): void {
  const { status: actual, headers, body } = parsed(answer);
  expect(actual, answer).toBe(status);
  expect(body, answer).toMatchObject({ status, code, tppMessages: [{ category: 'ERROR', code, ...(path ? { path } : {}) }] });
  expect(headers['api-release']).toBe(API_RELEASE);
  expect(headers['x-content-type-options']).toBe('nosniff');
}

describe('faults of the client', () => {
  let server: TestServer;
  const log = capturedLog();
  const errorsLogged = () => log.lines().filter((line) => line.level >= ERROR_LEVEL);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const openConnections = () =>
    new Promise<number>((resolve, reject) => server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
  /**
   * Waits until the server holds no more connections than `before` (the client's went, and the
   * server has done with it; keep-alive connections of other tests may close meanwhile), then a
   * little longer for what it logs after that.
   */
  async function connectionsBackTo(before: number): Promise<void> {
    for (const deadline = Date.now() + 10_000; (await openConnections()) > before;) {
      if (Date.now() > deadline) throw new Error('the server still holds the connection after 10 s');
      await sleep(20);
    }
    await sleep(100);
  }
  /** Waits until the server has logged `count` more finished requests than `before`, then a little longer. */
  async function requestsLogged(before: number, count: number): Promise<void> {
    const finished = () => log.lines().filter((line) => line.msg === 'request').length;
    for (const deadline = Date.now() + 10_000; finished() < before + count;) {
      if (Date.now() > deadline) throw new Error('the requests were not logged within 10 s');
      await sleep(20);
    }
    await sleep(100);
  }
  /** Sends `request` on a new connection and gives the socket to `then` once connected. */
  function connected(request: string, then: (socket: Socket) => void): Socket {
    const { port } = new URL(server.baseUrl);
    const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true }, () => {
      socket.write(request);
      then(socket);
    });
    return socket;
  }

  beforeAll(async () => {
    server = await startTestServer({ logger: log.logger, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  });
  afterAll(() => server.close());

  describe('Host (RFC 9112 §3.2)', () => {
    it('refuses an HTTP/1.1 request without Host with 400 and the error body, at Host', async () => {
      const answer = await rawExchange(server.baseUrl, 'GET /health/live HTTP/1.1\r\nConnection: close\r\n\r\n');
      expectRefusal(answer, 400, 'FORMAT_ERROR', 'Host');
    });

    it('refuses two Host headers and a Host that is not a host', async () => {
      const twice = await rawExchange(server.baseUrl, 'GET /health/live HTTP/1.1\r\nHost: a\r\nhost: a\r\nConnection: close\r\n\r\n');
      expectRefusal(twice, 400, 'FORMAT_ERROR', 'Host');
      for (const host of ['a b', 'a/b@c', 'a:port']) {
        const answer = await rawExchange(server.baseUrl, `GET /health/live HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expectRefusal(answer, 400, 'FORMAT_ERROR', 'Host');
      }
    });

    it('serves a host name, an IP literal with a port and an empty Host, and HTTP/1.0 without one', async () => {
      for (const host of ['bank.example', 'bank.example.', '127.0.0.1:8080', '[::1]', '[::1]:8080', 'xs2a_backend:3000', '']) {
        const answer = await rawExchange(server.baseUrl, `GET /health/live HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect(parsed(answer).status, `Host: ${host}`).toBe(200);
      }
      const old = await rawExchange(server.baseUrl, 'GET /health/live HTTP/1.0\r\n\r\n');
      expect(parsed(old).status).toBe(200);
    });
  });

  describe('CONNECT (RFC 9110 §9.3.6: a tunnel, never opened here)', () => {
    it('is answered 405 with the error body and Allow, instead of the connection dropped', async () => {
      const authority = parsed(await rawExchange(server.baseUrl, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      expectRefusal(await rawExchange(server.baseUrl, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: localhost\r\n\r\n'), 405, 'SERVICE_INVALID');
      expect(authority.headers['allow']).toBe('');
      const path = parsed(await rawExchange(server.baseUrl, 'CONNECT /v1/accounts HTTP/1.1\r\nHost: localhost\r\n\r\n'));
      expect(path.status).toBe(405);
      expect(path.headers['allow']).toContain('GET');
    });

    it('survives a client that resets the connection at once', async () => {
      const connections = await openConnections();
      await new Promise<void>((resolve) => {
        const socket = connected('CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: localhost\r\n\r\n', () => {
          socket.resetAndDestroy();
          resolve();
        });
      });
      await connectionsBackTo(connections);
      expect((await fetch(`${server.baseUrl}/health/live`)).status).toBe(200);
    });

    it('lets go of the connection of a client that keeps its side open', async () => {
      const connections = await openConnections();
      const socket = connected('CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: localhost\r\n\r\n', () => {});
      socket.on('error', () => {});
      socket.resume();
      await new Promise((resolve) => socket.once('end', resolve));
      // The client never closes its side; the server lets go of its own after a grace for reading.
      const started = Date.now();
      await connectionsBackTo(connections);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(socket.destroyed).toBe(false);
      socket.destroy();
    });
  });

  describe('a body trickled in slower than the request timeout', () => {
    /** A POST whose declared body never all arrives: a byte every 200 ms, so the connection is never idle. */
    const trickled = (then: (socket: Socket, stop: () => void) => void) => {
      let drip: NodeJS.Timeout | undefined;
      const socket = connected(
        `POST /v1/funds-confirmations HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: ${randomUUID()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
        (connectedSocket) => {
          drip = setInterval(() => connectedSocket.writable && connectedSocket.write(' '), 200);
          then(connectedSocket, () => clearInterval(drip));
        },
      );
      socket.on('error', () => {});
      return socket;
    };

    it('is answered 408 with the error body, and no error is logged', async () => {
      const before = errorsLogged().length;
      const connections = await openConnections();
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        let data = '';
        trickled((socket, stop) => {
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => (data += chunk));
          // The client closes its side once the server has closed its own.
          socket.on('end', () => socket.end());
          socket.on('close', () => {
            stop();
            resolve(data);
          });
        });
      });
      expectRefusal(answer, 408, 'REQUEST_TIMEOUT');
      expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      await connectionsBackTo(connections);
      expect(errorsLogged().slice(before)).toEqual([]);
    });

    it('has its connection closed even when the client keeps trickling after the 408', async () => {
      const closedAfter = await new Promise<number>((resolve) => {
        const started = Date.now();
        trickled((socket, stop) => {
          socket.resume();
          socket.on('close', () => {
            stop();
            resolve(Date.now() - started);
          });
        });
      });
      // The 408 comes after the timeout (Node looks every quarter of it), the cut a grace later.
      expect(closedAfter).toBeLessThan(REQUEST_TIMEOUT_MS * 2 + 3_000);
    });
  });

  it('logs no error for a GET whose body the client cuts off half-way', async () => {
    const before = errorsLogged().length;
    const connections = await openConnections();
    await new Promise<void>((resolve) => {
      const socket = connected(
        `GET /v1/accounts HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: ${randomUUID()}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab`,
        () =>
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 200),
      );
      socket.on('error', () => resolve());
    });
    await connectionsBackTo(connections);
    expect(errorsLogged().slice(before)).toEqual([]);
  });

  it("logs no error for a form post on the PSU's page without a live visit, and answers it with the 403 page", async () => {
    const before = errorsLogged().length;
    const requestsBefore = log.lines().filter((line) => line.msg === 'request').length;
    const forms = ['login', 'code', 'revoke', 'logout'];
    for (const form of forms) {
      const response = await fetch(`${server.baseUrl}/psu/consents/${form}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'csrf=x',
        redirect: 'manual',
      });
      expect(response.status, form).toBe(403);
      expect(response.headers.get('content-type')).toContain('text/html');
      await response.text();
    }
    await requestsLogged(requestsBefore, forms.length);
    expect(errorsLogged().slice(before)).toEqual([]);
  });
});
