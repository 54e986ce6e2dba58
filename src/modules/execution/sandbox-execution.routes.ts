import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SandboxClockService } from '../clock/sandbox-clock.service.js';
import { callerOf } from '../sandbox/sandbox-request.js';
import type { BatchRunner } from './batch-runner.js';
import { getClockSchema, runBatchSchema, setClockSchema } from './sandbox-execution.schemas.js';

export interface SandboxExecutionRouteOptions {
  readonly sandboxClock: SandboxClockService;
  readonly runner: BatchRunner;
}

/** `/v1/sandbox/clock` and `/v1/sandbox/batch-runs`: time and execution under the TPP's control. */
export const sandboxExecutionRoutes: FastifyPluginAsyncTypebox<SandboxExecutionRouteOptions> = async (app, { sandboxClock, runner }) => {
  app.get('/clock', { schema: getClockSchema }, async (request) => sandboxClock.view(callerOf(request).tppId));

  app.post('/clock', { schema: setClockSchema }, async (request) => sandboxClock.set(callerOf(request), request.body));

  // 200, not 201: the answer is what the run did; the run is no resource a TPP reads later.
  app.post('/batch-runs', { schema: runBatchSchema }, async (request) => {
    const report = await runner.run('requested', callerOf(request).tppId);
    if (!report.tenantDay) throw new Error('a run limited to one TPP reports its day');
    return {
      batchRunId: report.batchRunId,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      durationMs: report.durationMs,
      today: report.tenantDay.today,
      lastRunOfDay: report.tenantDay.lastRunOfDay,
      counts: report.counts,
    };
  });
};
