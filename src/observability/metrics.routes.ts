import type { FastifyInstance } from 'fastify';
import type { BatchRunObserver } from '../modules/execution/batch-run-report.js';
import { batchRunObserver, UNMATCHED_ROUTE, type Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's Prometheus metrics. */
    metrics: Metrics;
    /** What the batch runner calls with every finished run: the metrics, then `AppDependencies.onBatchRun`. */
    batchRunFinished: BatchRunObserver;
  }
}

const METRICS_PATH = '/metrics';

/**
 * Records every answered request and serves `GET /metrics` in the Prometheus text format:
 * unsigned and outside `/v1`, like the health probes. It tells a scraper about the whole bank's
 * traffic, so the bank's reverse proxy keeps it off the public network. Install on the root
 * instance: its hook then covers every route, the not-found answers included.
 * `app.batchRunFinished` tells the metrics and then `options.onBatchRun` of a finished batch run.
 */
export function installMetrics(app: FastifyInstance, metrics: Metrics, options: { onBatchRun?: BatchRunObserver | undefined } = {}): void {
  app.decorate('metrics', metrics);
  app.decorate('batchRunFinished', batchRunObserver(metrics, options.onBatchRun));
  app.addHook('onResponse', async (request, reply) => {
    const route = request.is404 ? undefined : request.routeOptions.url;
    // Scrapes are not traffic: leaving them out keeps the request rate what the TPPs send.
    if (route === METRICS_PATH) return;
    metrics.recordRequest(request.method, route ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    try {
      const text = await metrics.exposition();
      return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
    } catch (error) {
      request.log.warn({ err: error }, 'metrics could not be collected');
      return reply.code(503).type('text/plain; charset=utf-8').send('metrics unavailable\n');
    }
  });
}
