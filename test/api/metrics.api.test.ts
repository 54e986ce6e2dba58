/**
 * `GET /metrics` (Prometheus text format): unsigned, outside /v1; requests counted by route
 * pattern (never the raw URL, so ids do not make series), payments by transactionStatus counted
 * at scrape time, batch runs as the runner reports them, and Node's process metrics.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { BATCH_OUTCOMES, type BatchOutcome, type BatchRunReport } from '../../src/modules/execution/batch-run-report.js';
import { TRANSACTION_STATUSES } from '../../src/modules/payments/payment-status.js';
import { TrustStore } from '../../src/security/certificates/trust-store.js';
import { DIALECTS, openTestDatabase } from '../support/databases.js';
import { created, initiate, NDCT, ndctBody, privatePsu } from '../support/payments.js';
import { parseExposition, sampleValue, samplesNamed, type Sample } from '../support/prometheus.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

async function scrape(baseUrl: string): Promise<{ samples: Sample[]; text: string; response: Response }> {
  const response = await fetch(new URL('/metrics', baseUrl));
  const text = await response.text();
  return { samples: parseExposition(text), text, response };
}

/** Counts of a run: the given outcomes, 0 for the others. */
const counts = (given: Partial<Record<BatchOutcome, number>>): Record<BatchOutcome, number> =>
  Object.fromEntries(BATCH_OUTCOMES.map((outcome) => [outcome, given[outcome] ?? 0])) as Record<BatchOutcome, number>;

const report = (overrides: Partial<BatchRunReport> = {}): BatchRunReport => ({
  batchRunId: 'b7f1c2a4-1d2e-4f3a-9b8c-0a1b2c3d4e5f',
  trigger: 'requested',
  startedAt: '2026-11-27T06:00:00.000Z',
  finishedAt: '2026-11-27T06:00:01.500Z',
  durationMs: 1500,
  counts: counts({ executed: 3, awaitingFunds: 1, skipped: 2 }),
  ...overrides,
});

describe('GET /metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers the Prometheus text format, unsigned, and every line parses', async () => {
    // What Prometheus itself sends.
    const response = await fetch(new URL('/metrics', server.baseUrl), {
      headers: { accept: 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.4,*/*;q=0.1' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const samples = parseExposition(text);
    // One sample per name and label set.
    const keys = samples.map((sample) => `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Node's process metrics, with the xs2a_ prefix.
    expect(sampleValue(samples, 'xs2a_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samplesNamed(samples, 'xs2a_nodejs_version_info')).toHaveLength(1);
    expect(text).toContain('# TYPE xs2a_http_request_duration_seconds histogram');
  });

  it('counts requests by route pattern, unmatched ones as "unmatched", and leaves scrapes out', async () => {
    for (let n = 0; n < 3; n++) {
      expect((await fetch(new URL('/health/live', server.baseUrl))).status).toBe(200);
    }
    expect((await fetch(new URL('/no/such/route-4711', server.baseUrl))).status).toBe(404);
    const read = await server.client.get(`/v1/payments/${NDCT}/0d7f0d1e-8c1b-4a4e-9a55-5f0f7e3b1c22`);
    expect(read.status).toBe(404);

    const { samples, text } = await scrape(server.baseUrl);
    expect(sampleValue(samples, 'xs2a_http_requests_total', { method: 'GET', route: '/health/live', status: '200' })).toBe(3);
    expect(sampleValue(samples, 'xs2a_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(
      sampleValue(samples, 'xs2a_http_requests_total', {
        method: 'GET',
        route: '/v1/payments/:paymentProduct/:paymentId',
        status: String(read.status),
      }),
    ).toBe(1);
    expect(sampleValue(samples, 'xs2a_http_request_duration_seconds_count', { method: 'GET', route: '/health/live', status: '200' })).toBe(
      3,
    );
    expect(
      sampleValue(samples, 'xs2a_http_request_duration_seconds_bucket', { method: 'GET', route: '/health/live', status: '200', le: '10' }),
    ).toBe(3);
    // No raw URL, no id, and no scrape of /metrics among the routes.
    expect(text).not.toContain('route-4711');
    expect(text).not.toContain('0d7f0d1e');
    const routes = new Set(samplesNamed(samples, 'xs2a_http_requests_total').map((sample) => sample.labels['route']));
    expect(routes.has('/metrics')).toBe(false);
  });

  it('feeds the batch run metrics from app.batchRunFinished', async () => {
    const before = await scrape(server.baseUrl);
    for (const trigger of ['scheduled', 'requested', 'resumed']) {
      expect(sampleValue(before.samples, 'xs2a_batch_runs_total', { trigger })).toBe(0);
    }
    expect(sampleValue(before.samples, 'xs2a_batch_run_payments_total', { outcome: 'executed' })).toBe(0);

    server.app.batchRunFinished(report());
    server.app.batchRunFinished(report({ trigger: 'scheduled', durationMs: 20, counts: counts({ executed: 1, awaitingFunds: 1 }) }));

    const { samples } = await scrape(server.baseUrl);
    expect(sampleValue(samples, 'xs2a_batch_runs_total', { trigger: 'requested' })).toBe(1);
    expect(sampleValue(samples, 'xs2a_batch_runs_total', { trigger: 'scheduled' })).toBe(1);
    expect(sampleValue(samples, 'xs2a_batch_runs_total', { trigger: 'resumed' })).toBe(0);
    expect(sampleValue(samples, 'xs2a_batch_run_duration_seconds_sum', { trigger: 'requested' })).toBe(1.5);
    expect(sampleValue(samples, 'xs2a_batch_run_duration_seconds_bucket', { trigger: 'requested', le: '1' })).toBe(0);
    expect(sampleValue(samples, 'xs2a_batch_run_duration_seconds_bucket', { trigger: 'requested', le: '5' })).toBe(1);
    expect(sampleValue(samples, 'xs2a_batch_run_duration_seconds_bucket', { trigger: 'scheduled', le: '0.05' })).toBe(1);
    expect(
      Object.fromEntries(samplesNamed(samples, 'xs2a_batch_run_payments_total').map((sample) => [sample.labels['outcome'], sample.value])),
    ).toEqual(counts({ executed: 4, awaitingFunds: 2, skipped: 2 }));
  });

  it('keeps a registry per app: a second app in the same process starts from zero', async () => {
    const other = await startTestServer();
    try {
      const { samples } = await scrape(other.baseUrl);
      expect(sampleValue(samples, 'xs2a_http_requests_total', { method: 'GET', route: '/health/live', status: '200' })).toBeUndefined();
      expect(sampleValue(samples, 'xs2a_batch_runs_total', { trigger: 'requested' })).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe.each(DIALECTS)('payments by status in /metrics (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  it('counts the stored payments by transactionStatus at scrape time, 0 for the statuses without any', async () => {
    const empty = await scrape(server.baseUrl);
    expect(
      Object.fromEntries(samplesNamed(empty.samples, 'xs2a_payments').map((sample) => [sample.labels['status'], sample.value])),
    ).toEqual(Object.fromEntries(TRANSACTION_STATUSES.map((status) => [status, 0])));

    const psu = await privatePsu(server.client);
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      ids.push((await created(initiate(server.client, 'payments', NDCT, ndctBody(psu.account), { headers: psu.headers }))).paymentId);
    }
    await server.database.db.updateTable('payment').set({ status: 'RJCT' }).where('id', '=', ids[0]!).execute();

    const { samples } = await scrape(server.baseUrl);
    expect(sampleValue(samples, 'xs2a_payments', { status: 'RCVD' })).toBe(2);
    expect(sampleValue(samples, 'xs2a_payments', { status: 'RJCT' })).toBe(1);
    expect(sampleValue(samples, 'xs2a_payments', { status: 'ACSC' })).toBe(0);
    expect(samplesNamed(samples, 'xs2a_payments')).toHaveLength(TRANSACTION_STATUSES.length);
  });
});

describe('batch runs reach the metrics and the caller', () => {
  it('app.batchRunFinished tells the metrics, then AppDependencies.onBatchRun', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xs2a-metrics-'));
    const database = await openTestDatabase('sqlite');
    const seen: BatchRunReport[] = [];
    const app = await buildApp(loadConfig({ XS2A_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), {
      database,
      trustStore: new TrustStore([]),
      runsBatchSchedule: false,
      onBatchRun: (finished) => seen.push(finished),
    });
    try {
      app.batchRunFinished(report());
      expect(seen).toEqual([report()]);
      const answer = await app.inject({ method: 'GET', url: '/metrics' });
      expect(answer.statusCode).toBe(200);
      expect(sampleValue(parseExposition(answer.body), 'xs2a_batch_runs_total', { trigger: 'requested' })).toBe(1);
    } finally {
      await app.close();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
