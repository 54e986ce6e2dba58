/**
 * Baseline (a) of docs/design.md §9: a bare Fastify 5 route that does only what any signed, persisted
 * write must do (PUT of a contact, POST of a payment body): ONE async RSA-2048 verify of the Signature header over its signing string (the
 * KeyObject cached) and ONE prepared better-sqlite3 INSERT (WAL, synchronous=NORMAL). One process,
 * no logging, no schemas. The full server's throughput is measured against this.
 *
 * Run by bench/run.ts as `node --import tsx bench/baseline-server.ts` with PORT, BASELINE_DB (a
 * fresh SQLite file) and BASELINE_PUBLIC_KEY_FILE (the TPP's public key, PEM).
 */
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const port = Number(required('PORT'));
const publicKey = createPublicKey(readFileSync(required('BASELINE_PUBLIC_KEY_FILE')));

const db = new Database(required('BASELINE_DB'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS contact (
  id INTEGER PRIMARY KEY,
  tpp_id TEXT NOT NULL,
  email TEXT NOT NULL,
  request_id TEXT NOT NULL,
  created_at TEXT NOT NULL
)`);
const insert = db.prepare('INSERT INTO contact (tpp_id, email, request_id, created_at) VALUES (?, ?, ?, ?)');

const app = Fastify({ logger: false });

app.put<{ Params: { id: string }; Body: { email?: unknown } }>('/baseline/:id', async (request, reply) => {
  if (!(await signatureVerifies(request.headers, request.method, request.raw.url ?? request.url))) {
    return reply.code(401).send({ code: 'SIGNATURE_INVALID' });
  }
  const email = typeof request.body?.email === 'string' ? request.body.email : '';
  insert.run(request.params.id, email, String(request.headers['x-request-id']), new Date().toISOString());
  return { email, _links: { self: { href: `/baseline/${request.params.id}` } } };
});

// The same work for a POSTed payment body: verify, then store the body as received.
app.post<{ Params: { id: string } }>('/baseline/:id', async (request, reply) => {
  if (!(await signatureVerifies(request.headers, request.method, request.raw.url ?? request.url))) {
    return reply.code(401).send({ code: 'SIGNATURE_INVALID' });
  }
  const requestId = String(request.headers['x-request-id']);
  insert.run(request.params.id, JSON.stringify(request.body), requestId, new Date().toISOString());
  return reply.code(201).send({ transactionStatus: 'RCVD', paymentId: requestId, _links: { self: { href: `/baseline/${requestId}` } } });
});

/** Rebuilds the draft-cavage signing string from the headers the signature names and verifies it on the thread pool. */
function signatureVerifies(headers: IncomingHttpHeaders, method: string, target: string): Promise<boolean> {
  const header = String(headers.signature ?? '');
  const signed = /headers="([^"]*)"/.exec(header)?.[1];
  const signature = /signature="([^"]*)"/.exec(header)?.[1];
  if (!signed || !signature) return Promise.resolve(false);
  const signingString = signed
    .split(' ')
    .map((name) =>
      name === '(request-target)'
        ? `(request-target): ${method.toLowerCase()} ${target}`
        : `${name}: ${String(headers[name] ?? '').trim()}`,
    )
    .join('\n');
  return new Promise((resolve) => {
    verify('sha256', Buffer.from(signingString, 'latin1'), publicKey, Buffer.from(signature, 'base64'), (error, valid) =>
      resolve(!error && valid),
    );
  });
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`baseline-server: ${name} is not set`);
  return value;
}

const shutdown = () => {
  app.close().then(
    () => {
      db.close();
      process.exit(0);
    },
    () => process.exit(1),
  );
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`baseline listening on http://127.0.0.1:${port}\n`);
