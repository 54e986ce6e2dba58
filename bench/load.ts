import { request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import type { PreparedRequest } from './pools.js';

export interface LoadResult {
  /** Responses of the measured run divided by its duration. */
  readonly requestsPerSecond: number;
  readonly total: number;
  readonly durationSeconds: number;
  readonly latencyMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly average: number; readonly max: number };
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Counts by status code, so a flagged run says which statuses it got. */
  readonly statusCodes: Readonly<Record<string, number>>;
  /** How many requests were sent again because the pool ran out (0 in an honest run). */
  readonly repeated: number;
}

/**
 * Cycles through a pre-built pool with one index shared by all connections, so consecutive
 * requests on the wire are distinct (own X-Request-ID, body, signature) and no connection
 * replays another's sequence in lock-step.
 */
function rotating(pool: readonly PreparedRequest[], counter: { sent: number }): autocannon.Request {
  return {
    setupRequest: (request) => {
      const entry = pool[counter.sent++ % pool.length]!;
      // A fresh headers object: autocannon adds Content-Length to it, and the pool stays untouched.
      return { ...request, method: entry.method, path: entry.path, headers: { ...entry.headers }, body: entry.body };
    },
  };
}

/**
 * One autocannon run against `baseUrl`, bounded by `seconds` (each request also times out after
 * 10 s), cycling through `pool`. The bench calls it once to warm up and once to measure.
 */
export async function runPhase(
  baseUrl: string,
  pool: readonly PreparedRequest[],
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const counter = { sent: 0 };
  const result = await autocannon({
    url: baseUrl,
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    requests: [rotating(pool, counter)],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = stats.count ?? 0;
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    total: result.requests.total,
    durationSeconds: result.duration,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      average: result.latency.average,
      max: result.latency.max,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    repeated: Math.max(0, counter.sent - pool.length),
  };
}

/** Sends one request of the pool and returns the answer, to fail fast with a readable body before any load. */
export function sendOnce(baseUrl: string, prepared: PreparedRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL(prepared.path, baseUrl),
      {
        method: prepared.method,
        headers: { ...prepared.headers, 'content-length': String(prepared.body.length) },
        agent: false,
        timeout: 5_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.once('timeout', () => req.destroy(new Error(`no answer from ${baseUrl}${prepared.path} within 5 s`)));
    req.once('error', reject);
    req.end(prepared.body);
  });
}
