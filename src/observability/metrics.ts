import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/create-db.js';
import { BATCH_OUTCOMES, type BatchRunObserver, type BatchRunReport, type BatchTrigger } from '../modules/execution/batch-run-report.js';
import { TRANSACTION_STATUSES } from '../modules/payments/payment-status.js';
import { clusterWorkerExposition } from './cluster-metrics.js';

/** The route label of a request no route matched (404, 405): the raw URL would make a series per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

const BATCH_TRIGGERS: readonly BatchTrigger[] = ['scheduled', 'requested', 'resumed'];

/** 1 ms to 10 s: a signed API call takes a few ms, a slow core-banking answer seconds. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A batch run takes from milliseconds (nothing due) to minutes (a bank's whole day). */
const BATCH_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600];

/**
 * The Prometheus metrics of one app, in a registry of its own (never prom-client's global one,
 * so tests can build several apps in one process).
 */
export interface Metrics {
  readonly registry: Registry;
  /** The content type of {@link exposition}'s text. */
  readonly contentType: string;
  /** One finished HTTP request; `route` is the route pattern or {@link UNMATCHED_ROUTE}. */
  recordRequest(method: string, route: string, status: number, seconds: number): void;
  /** One finished batch run; a {@link BatchRunObserver}, so it can be handed on as is. */
  readonly batchRunFinished: BatchRunObserver;
  /**
   * What `GET /metrics` answers: this registry, or in a `serve --workers N` worker the aggregate
   * of every worker, which the primary collects.
   */
  exposition(): Promise<string>;
}

export interface MetricsOptions {
  /** Where a failed payments count at scrape time is reported. */
  readonly logger?: FastifyBaseLogger | undefined;
}

export function createMetrics(db: Db, options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'xs2a_' });

  const requests = new Counter({
    name: 'xs2a_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: 'xs2a_http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });

  const payments: Gauge<'status'> = new Gauge({
    name: 'xs2a_payments',
    help: 'Payment resources by transactionStatus (a bulk counts once).',
    labelNames: ['status'] as const,
    registers: [registry],
    // Every worker counts the same shared table: the aggregate must not add them up.
    aggregator: 'first',
    collect: async () => {
      try {
        const rows = await db
          .selectFrom('payment')
          .select(['status', (eb) => eb.fn.countAll().as('count')])
          .groupBy('status')
          .execute();
        payments.reset();
        for (const status of TRANSACTION_STATUSES) payments.set({ status }, 0);
        // PostgreSQL answers count(*) as text (int8).
        for (const row of rows) payments.set({ status: row.status }, Number(row.count));
      } catch (error) {
        // No samples rather than stale ones; the rest of the scrape still answers.
        payments.reset();
        options.logger?.warn({ err: error }, 'metrics: payments by status could not be counted');
      }
    },
  });

  const batchRuns = new Counter({
    name: 'xs2a_batch_runs_total',
    help: 'Finished batch runs, by trigger.',
    labelNames: ['trigger'] as const,
    registers: [registry],
  });
  const batchDuration = new Histogram({
    name: 'xs2a_batch_run_duration_seconds',
    help: 'Duration of finished batch runs, by trigger.',
    labelNames: ['trigger'] as const,
    buckets: BATCH_BUCKETS,
    registers: [registry],
  });
  const batchPayments = new Counter({
    name: 'xs2a_batch_run_payments_total',
    help: 'Payment resources handled by batch runs, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // Known label values start at 0, so a rate() sees the first run too.
  for (const trigger of BATCH_TRIGGERS) {
    batchRuns.inc({ trigger }, 0);
    batchDuration.zero({ trigger });
  }
  for (const outcome of BATCH_OUTCOMES) batchPayments.inc({ outcome }, 0);

  const ownExposition = () => registry.metrics();
  const exposition = clusterWorkerExposition(registry) ?? ownExposition;

  return {
    registry,
    contentType: registry.contentType,
    recordRequest(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      requestDuration.observe(labels, seconds);
    },
    batchRunFinished(report: BatchRunReport) {
      batchRuns.inc({ trigger: report.trigger });
      batchDuration.observe({ trigger: report.trigger }, report.durationMs / 1000);
      for (const outcome of BATCH_OUTCOMES) {
        const count = report.counts[outcome];
        if (count > 0) batchPayments.inc({ outcome }, count);
      }
    },
    exposition,
  };
}

/** One observer that tells the metrics, then `next` (the caller's observer), of every finished batch run. */
export function batchRunObserver(metrics: Metrics, next?: BatchRunObserver): BatchRunObserver {
  return (report) => {
    metrics.batchRunFinished(report);
    next?.(report);
  };
}
