/**
 * The bench's own rules (bench/): a load phase sends each pooled request at most once and a reused
 * X-Request-ID flags the run; every budget gets a verdict, MISSED when its figure falls short and
 * "not measured" when there is none; a CPU profile is summarised into its top self-time frames.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topSelfFrames } from '../../bench/cpuprofile-top.js';
import { runPhase, type LoadResult } from '../../bench/load.js';
import type { PreparedRequest } from '../../bench/pools.js';
import { evaluateBudgets, type BudgetRole, type ScenarioResult } from '../../bench/report.js';

function pool(size: number): PreparedRequest[] {
  return Array.from({ length: size }, (_, n) => ({
    method: 'POST' as const,
    path: '/echo',
    headers: { 'x-request-id': `request-${n}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ n })),
  }));
}

describe('a load phase', () => {
  const received: string[] = [];
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(String(request.headers['x-request-id']));
      request.resume();
      request.on('end', () => response.writeHead(201).end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends every request of its pool once and ends when the pool is used up, before its time', async () => {
    received.length = 0;
    const sent = new Set<string>();
    const load = await runPhase(baseUrl, pool(300), 10, 60, sent);
    expect(load.durationSeconds).toBeLessThan(30);
    expect(load.poolExhausted).toBe(true);
    expect(load.total).toBe(300);
    expect(load.repeated).toBe(0);
    expect(received).toHaveLength(300);
    expect(new Set(received).size).toBe(300);
    expect(sent.size).toBe(300);
  });

  it('counts requests whose X-Request-ID an earlier phase of the scenario already sent', async () => {
    const sent = new Set<string>(['request-0', 'request-1', 'request-2']);
    const load = await runPhase(baseUrl, pool(20), 5, 60, sent);
    expect(load.repeated).toBe(3);
  });

  it('stops at its time when the pool lasts longer', async () => {
    const load = await runPhase(baseUrl, pool(100_000), 5, 0.5, new Set());
    expect(load.poolExhausted).toBe(false);
    expect(load.total).toBeGreaterThan(0);
    expect(load.total).toBeLessThan(100_000);
  });
});

function result(budgetRole: BudgetRole, requestsPerSecond: number, p99 = 10): ScenarioResult {
  const load: LoadResult = {
    requestsPerSecond,
    total: requestsPerSecond * 10,
    durationSeconds: 10,
    latencyMs: { p50: 1, p90: 2, p99, average: 1, max: p99 },
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statusCodes: { '201': requestsPerSecond * 10 },
    repeated: 0,
    poolExhausted: false,
  };
  return {
    id: budgetRole,
    label: budgetRole,
    budgetRole,
    load,
    rssPeakMb: 100,
    targetCpuCores: 1,
    cpuMicrosPerRequest: 1e6 / requestsPerSecond,
    loadGeneratorCpuCores: 0.2,
    otherCpuCores: 0,
    targetExited: undefined,
  };
}

describe('the budgets', () => {
  const verdictOf = (budgets: ReturnType<typeof evaluateBudgets>, name: string) => budgets.find((b) => b.name.startsWith(name))?.verdict;

  it('are MISSED when a figure falls short, met when it holds, and not measured without a figure', () => {
    const budgets = evaluateBudgets(
      [result('baseline', 1000), result('subject', 300, 40), result('prism', 100), result('balances', 600)],
      900,
      [{ dialect: 'sqlite', payments: 10_000, seconds: 2, cpuSeconds: 2, paymentsPerSecond: 5_000, executed: 10_000 }],
    );
    expect(verdictOf(budgets, 'signed initiation (b) / baseline (a)')).toBe('MISSED');
    // The same ratio from CPU µs per request: the baseline's cost over the subject's.
    expect(budgets.find((b) => b.name.startsWith('signed initiation (b) / baseline (a)'))?.byCpu).toBe('0.30x');
    expect(verdictOf(budgets, 'p99 latency')).toBe('MISSED');
    expect(verdictOf(budgets, 'signed initiation (b) / Prism')).toBe('met');
    expect(verdictOf(budgets, 'signed balances read')).toBe('met');
    expect(verdictOf(budgets, 'signed transactions page')).toBe('not measured');
    expect(verdictOf(budgets, 'signed initiation on PostgreSQL')).toBe('not measured');
    expect(verdictOf(budgets, 'batch run on SQLite')).toBe('MISSED');
    expect(verdictOf(budgets, 'batch run on PostgreSQL')).toBe('not measured');
    expect(verdictOf(budgets, 'cold start')).toBe('met');
  });

  it('hold at their exact bounds', () => {
    const budgets = evaluateBudgets([result('baseline', 1000), result('subject', 400, 15), result('prism', 200)], 1_499, []);
    expect(verdictOf(budgets, 'signed initiation (b) / baseline (a)')).toBe('met');
    expect(verdictOf(budgets, 'p99 latency')).toBe('met');
    expect(verdictOf(budgets, 'signed initiation (b) / Prism')).toBe('met');
  });
});

describe('a CPU profile summary', () => {
  it('adds up the self time of each function and file, leaves idle out and sorts by it', () => {
    const frame = (id: number, functionName: string, url = '') => ({ id, callFrame: { functionName, url, lineNumber: 9 } });
    const profile = {
      nodes: [
        frame(1, '(root)'),
        frame(2, '(idle)'),
        frame(3, 'verify', 'node:internal/crypto/sig'),
        frame(4, 'insert', 'file:///x/node_modules/kysely/a.js'),
        frame(5, 'verify', 'node:internal/crypto/sig'),
      ],
      startTime: 0,
      endTime: 6_000,
      samples: [2, 2, 3, 4, 5, 3],
    };
    expect(topSelfFrames(profile, 5)).toEqual([
      { frame: 'verify (node:internal/crypto/sig:10)', selfMs: 3, selfPercent: 75 },
      { frame: 'insert (kysely/a.js:10)', selfMs: 1, selfPercent: 25 },
    ]);
  });
});
