import { createHash, verify, X509Certificate } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { once } from 'node:events';

/**
 * A TPP's notification endpoint for the tests: a small HTTP server on 127.0.0.1 that keeps every
 * notification it is sent and checks each one's signature with the bank's seal certificate, the
 * way docs/notifications.md tells a TPP to. It can be taken down (connections refused) and brought
 * back on the same port, or made to answer 503, to test the bank's retries.
 */
export interface ReceivedNotification {
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
  /** Why the signature does not hold; undefined when it verifies with the bank's certificate. */
  readonly signatureProblem: string | undefined;
}

export interface NotificationReceiver {
  /** `http://127.0.0.1:<port>/notifications`, or `…/<path>` when given. */
  uri(path?: string): string;
  readonly received: ReceivedNotification[];
  /** Answers 503 to every notification while true. */
  failing: boolean;
  /** Stops listening: the bank's POSTs are refused at the socket. */
  down(): Promise<void>;
  /** Listens again, on the same port. */
  up(): Promise<void>;
  /** Waits until `count` notifications have been received (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedNotification[]>;
  close(): Promise<void>;
}

/** `now`: the clock a notification's Date is checked against (a test's fake clock; the real one by default). */
export async function startNotificationReceiver(
  bankCertificate: () => string,
  now: () => number = Date.now,
): Promise<NotificationReceiver> {
  const received: ReceivedNotification[] = [];
  let server: Server | undefined;
  let port = 0;
  const state = { failing: false };

  async function listen(): Promise<void> {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (state.failing) {
          response.writeHead(503).end();
          return;
        }
        const body = Buffer.concat(chunks);
        const headers = request.headers;
        const flat = (name: string) => {
          const value = headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        };
        received.push({
          headers,
          body: JSON.parse(body.toString('utf8')),
          signatureProblem: verifyNotification(flat, body, new X509Certificate(bankCertificate()), now()),
        });
        response.writeHead(204).end();
      });
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  }

  async function stop(): Promise<void> {
    const closing = server;
    server = undefined;
    if (!closing) return;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  }

  await listen();
  return {
    uri: (path = 'notifications') => `http://127.0.0.1:${port}/${path}`,
    received,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    down: stop,
    up: listen,
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) {
          throw new Error(`${received.length} notifications received, ${count} expected: ${JSON.stringify(received.map((r) => r.body))}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received;
    },
    close: stop,
  };
}

/**
 * Checks a notification as a TPP does (the code of docs/notifications.md): the certificate sent is
 * the bank's own, the Digest is the body's, and the Signature covers date, digest and x-request-id
 * and verifies with that certificate's key. Answers the problem, or undefined when all holds.
 */
export function verifyNotification(
  header: (name: string) => string | undefined,
  body: Buffer,
  bank: X509Certificate,
  now: number = Date.now(),
): string | undefined {
  const sent = header('aspsp-signature-certificate');
  if (sent === undefined || !new X509Certificate(Buffer.from(sent, 'base64')).raw.equals(bank.raw)) {
    return "ASPSP-Signature-Certificate is not the bank's seal certificate";
  }
  if (header('digest') !== `SHA-256=${createHash('sha256').update(body).digest('base64')}`) {
    return 'Digest does not match the body';
  }
  const parameters = new Map([...(header('signature') ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
  const signed = (parameters.get('headers') ?? '').split(' ');
  if (!['date', 'digest', 'x-request-id'].every((name) => signed.includes(name))) {
    return 'the signature does not cover date, digest and x-request-id';
  }
  const signingString = signed.map((name) => `${name}: ${header(name) ?? ''}`).join('\n');
  const signature = Buffer.from(parameters.get('signature') ?? '', 'base64');
  if (!verify('sha256', Buffer.from(signingString), bank.publicKey, signature)) {
    return 'the signature does not verify with the bank certificate';
  }
  const age = Math.abs(now - Date.parse(header('date') ?? ''));
  if (!(age < 5 * 60_000)) return 'Date is not within five minutes of now';
  return undefined;
}
