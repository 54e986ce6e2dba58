/**
 * What a client gets wrong is answered as the client's fault, with the error body, and never
 * logged as an error of ours: a request without a valid `Host` (RFC 9112 §3.2), a body trickled in
 * slower than the server waits for, a body cut off half-way, a form post on the PSU's page without
 * a live visit. An error-level log line is what an operator is paged for.
 */
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_RELEASE } from '../../src/release/release-notes.js';
import { capturedLog, ERROR_LEVEL } from '../support/captured-log.js';
import { rawExchange } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The request timeout of the server under test: short, so that a trickled body meets it soon. */
const REQUEST_TIMEOUT_MS = 1_500;

/** An answer written as bytes: status, lower-cased headers and the body parsed as JSON when it is. */
function parsed(answer: string): { status: number; headers: Record<string, string>; body: any } {
  const [head = '', body = ''] = answer.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: json };
}

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
  /** Lets the server finish what it does after answering (or after the client left). */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

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
      const twice = await rawExchange(server.baseUrl, 'GET /health/live HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n');
      expectRefusal(twice, 400, 'FORMAT_ERROR', 'Host');
      for (const host of ['a b', 'a/b@c', 'a:port']) {
        const answer = await rawExchange(server.baseUrl, `GET /health/live HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expectRefusal(answer, 400, 'FORMAT_ERROR', 'Host');
      }
    });

    it('serves a host name, an IP literal with a port and an empty Host, and HTTP/1.0 without one', async () => {
      for (const host of ['bank.example', '127.0.0.1:8080', '[::1]:8080', '']) {
        const answer = await rawExchange(server.baseUrl, `GET /health/live HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect(parsed(answer).status, `Host: ${host}`).toBe(200);
      }
      const old = await rawExchange(server.baseUrl, 'GET /health/live HTTP/1.0\r\n\r\n');
      expect(parsed(old).status).toBe(200);
    });
  });

  it('answers CONNECT, which asks for a tunnel, with 405 and the error body instead of dropping the connection', async () => {
    for (const target of ['127.0.0.1:443', '/v1/accounts']) {
      const answer = await rawExchange(server.baseUrl, `CONNECT ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      expectRefusal(answer, 405, 'SERVICE_INVALID');
    }
  });

  it('answers a body trickled in slower than the request timeout with 408 and the error body', async () => {
    const { port } = new URL(server.baseUrl);
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v1/funds-confirmations HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: ${randomUUID()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
        );
      });
      // A byte every 200 ms: the connection is never idle, and the body never complete.
      const drip = setInterval(() => socket.writable && socket.write(' '), 200);
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (data += chunk));
      socket.on('close', () => {
        clearInterval(drip);
        resolve(data);
      });
      socket.on('error', (error) => {
        clearInterval(drip);
        if (data) resolve(data);
        else reject(error);
      });
      socket.setTimeout(15_000, () => socket.destroy(new Error('no answer within 15 s')));
    });
    expectRefusal(answer, 408, 'REQUEST_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
  });

  it('logs no error for a GET whose body the client cuts off half-way', async () => {
    const before = errorsLogged().length;
    const { port } = new URL(server.baseUrl);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `GET /v1/accounts HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: ${randomUUID()}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
      socket.on('error', () => resolve());
    });
    await settle();
    expect(errorsLogged().slice(before)).toEqual([]);
  });

  it("logs no error for a form post on the PSU's page without a live visit, and answers it with the 403 page", async () => {
    const before = errorsLogged().length;
    for (const form of ['login', 'code', 'revoke', 'logout']) {
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
    await settle();
    expect(errorsLogged().slice(before)).toEqual([]);
  });
});
