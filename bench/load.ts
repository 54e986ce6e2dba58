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
  /**
   * How many requests carried an X-Request-ID already sent in this scenario (0 in an honest run:
   * a repeat is answered from the idempotency store, a cheaper path than the one measured).
   */
  readonly repeated: number;
  /** The pool was used up before the phase's time: the run ended early, its rate is over the shorter time. */
  readonly poolExhausted: boolean;
}

/**
 * Hands out the pool's requests in order with one index shared by all connections, so every request
 * on the wire is distinct (own X-Request-ID, body, signature). autocannon is told to send exactly as
 * many as the pool holds; should it still ask for more, the last one is sent again. Every X-Request-ID
 * handed out is checked against `sent` (all the scenario's phases), so any reuse is counted and the
 * run flagged.
 */
function inOrder(pool: readonly PreparedRequest[], counter: { sent: number; repeated: number }, sent: Set<string>): autocannon.Request {
  return {
    setupRequest: (request) => {
      const entry = pool[Math.min(counter.sent++, pool.length - 1)]!;
      const requestId = entry.headers['x-request-id'] ?? '';
      if (sent.has(requestId)) counter.repeated++;
      else sent.add(requestId);
      // A fresh headers object: autocannon adds Content-Length to it, and the pool stays untouched.
      return { ...request, method: entry.method, path: entry.path, headers: { ...entry.headers }, body: entry.body };
    },
  };
}

/**
 * One autocannon run against `baseUrl` that sends each request of `pool` at most once: it ends after
 * `seconds` or when the pool is used up, whichever comes first (each request also times out after
 * `timeoutSeconds`). The bench calls it once to warm up and once to measure, with the same `sent` set.
 */
export async function runPhase(
  baseUrl: string,
  pool: readonly PreparedRequest[],
  connections: number,
  seconds: number,
  sent: Set<string> = new Set(),
  timeoutSeconds = 10,
): Promise<LoadResult> {
  const counter = { sent: 0, repeated: 0 };
  // `amount` bounds the requests (autocannon then ignores `duration`), the timer bounds the time.
  // autocannon notices a stop at its next sample, so samples every 100 ms keep the time exact.
  let timeUp = false;
  let timer: NodeJS.Timeout | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: Math.min(connections, pool.length),
        pipelining: 1,
        amount: pool.length,
        timeout: timeoutSeconds,
        sampleInt: 100,
        requests: [inOrder(pool, counter, sent)],
      },
      (error: unknown, done) => (error ? reject(error instanceof Error ? error : new Error('autocannon failed')) : resolve(done)),
    );
    timer = setTimeout(() => {
      timeUp = true;
      instance.stop();
    }, seconds * 1_000);
  }).finally(() => clearTimeout(timer));
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
    repeated: counter.repeated,
    poolExhausted: !timeUp,
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
