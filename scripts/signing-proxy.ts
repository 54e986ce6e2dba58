/**
 * A signing proxy for TPP developers: point Postman, newman or curl at it and every request is
 * forwarded to the server with the TPP's eIDAS QSealC signature added, exactly as a minimal
 * conformant TPP signs (draft-cavage-http-signatures-10): only the headers the Norwegian profile
 * requires — date, digest, x-request-id, and psu-id / psu-corporate-id / tpp-redirect-uri when
 * present. TPP-Nok-Redirect-URI and (request-target) are deliberately left unsigned, so a
 * server that demands more than the requirement is caught.
 *
 * The client's X-Request-ID is kept (one is added when missing), the body is forwarded byte for
 * byte (the Digest is computed over it), hop-by-hop headers are dropped both ways, and the
 * answer (status, headers, body) is passed back untouched.
 *
 *   npx tsx scripts/signing-proxy.ts --target http://127.0.0.1:8080 --tpp ./tpp [--port 8081]
 *
 * `--tpp DIR` is the directory `nordic-xs2a tpp init --out DIR` wrote (qsealc-key.pem, qsealc.pem).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { signRequest, type SigningCredentials } from '../src/client/request-signer.js';
import { readCredentials } from '../src/client/tpp-credentials.js';

/** RFC 9110 §7.6.1 connection-specific headers, plus the ones a proxy must not pass on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
]);

/** What the proxy did with one request; for logs and for the collection runner. */
export interface ProxyExchange {
  readonly method: string;
  /** Path and query as forwarded. */
  readonly path: string;
  readonly requestId: string;
  /** The `headers` parameter of the Signature sent, or undefined when nothing was sent. */
  readonly signedHeaders: readonly string[] | undefined;
  /** The server's status, or 502 when it could not be reached. */
  readonly status: number;
  readonly ms: number;
  readonly error?: string;
}

export interface SigningProxyOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:8080 (a path prefix is kept). */
  readonly target: string;
  readonly credentials: SigningCredentials;
  /** 0 (the default) lets the kernel choose a free port. */
  readonly port?: number;
  /** 127.0.0.1 by default. */
  readonly host?: string;
  readonly onExchange?: (exchange: ProxyExchange) => void;
}

export interface SigningProxy {
  /** http://host:port of the proxy. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Headers minus hop-by-hop ones and those named by Connection. */
function endToEnd(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string | string[]> {
  const connection = headers['connection'];
  const named = new Set(
    (Array.isArray(connection) ? connection.join(',') : (connection ?? ''))
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ''),
  );
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    kept[lower] = value;
  }
  return kept;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function signedHeadersOf(signature: string | undefined): readonly string[] | undefined {
  const match = signature === undefined ? null : /headers="([^"]*)"/.exec(signature);
  return match ? (match[1] ?? '').split(' ') : undefined;
}

/** Starts the proxy; resolves when it listens. */
export async function startSigningProxy(options: SigningProxyOptions): Promise<SigningProxy> {
  const target = new URL(options.target);
  const prefix = target.pathname.replace(/\/+$/, '');
  const agent = new Agent({ keepAliveTimeout: 10_000 });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = request.method ?? 'GET';
    const path = `${prefix}${request.url ?? '/'}`;
    const body = await readBody(request);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(endToEnd(request.headers))) {
      // The dispatcher sets these from the target and the body (which is sent as received).
      if (name === 'host' || name === 'content-length' || name === 'expect') continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    let signed: Record<string, string>;
    try {
      // Only the requirement's headers: no (request-target), no TPP-Nok-Redirect-URI.
      signed = signRequest({ method, path, headers, body }, options.credentials, {
        signRequestTarget: false,
        signOptionalHeaders: false,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ proxyError: message }));
      options.onExchange?.({
        method,
        path,
        requestId: headers['x-request-id'] ?? '',
        signedHeaders: undefined,
        status: 500,
        ms: 0,
        error: message,
      });
      return;
    }
    const requestId = signed['x-request-id'] ?? '';
    const signedHeaders = signedHeadersOf(signed['signature']);
    try {
      const answer = await agent.request({
        origin: target.origin,
        path,
        method,
        headers: signed,
        ...(body.length > 0 ? { body } : {}),
      });
      response.writeHead(answer.statusCode, endToEnd(answer.headers));
      // Passed on as received: no decompression, no re-encoding.
      for await (const chunk of answer.body) response.write(chunk);
      response.end();
      options.onExchange?.({ method, path, requestId, signedHeaders, status: answer.statusCode, ms: performance.now() - started });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) {
        response
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ proxyError: `target unreachable: ${message}` }));
      } else {
        response.destroy();
      }
      options.onExchange?.({ method, path, requestId, signedHeaders, status: 502, ms: performance.now() - started, error: message });
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
      process.stderr.write(`signing proxy: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      await agent.close();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      target: { type: 'string' },
      tpp: { type: 'string', default: './tpp' },
      port: { type: 'string', default: '0' },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!values.target || !/^https?:\/\//.test(values.target) || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('usage: npx tsx scripts/signing-proxy.ts --target URL --tpp DIR [--port N] [--quiet]\n');
    process.exitCode = 2;
    return;
  }
  const proxy = await startSigningProxy({
    target: values.target,
    credentials: readCredentials(values.tpp),
    port,
    ...(values.quiet
      ? {}
      : {
          onExchange: (e: ProxyExchange) =>
            process.stdout.write(
              `${e.status} ${e.method} ${e.path} x-request-id=${e.requestId} signed=[${(e.signedHeaders ?? []).join(' ')}] ${Math.round(e.ms)} ms${e.error ? ` ${e.error}` : ''}\n`,
            ),
        }),
  });
  process.stdout.write(`signing proxy on ${proxy.url} -> ${values.target} (TPP credentials from ${values.tpp})\n`);
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
