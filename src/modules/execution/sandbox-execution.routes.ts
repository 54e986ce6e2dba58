import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BANK_TIME_ZONE } from '../../domain/bank-calendar.js';
import { isLastRunOfDay, type BatchTime } from '../../domain/batch-schedule.js';
import { todayIn } from '../../domain/iso-date.js';
import type { BankClock } from '../clock/bank-clock.js';
import type { SandboxClockService } from '../clock/sandbox-clock.service.js';
import { callerOf } from '../sandbox/sandbox-request.js';
import type { BatchRunner } from './batch-runner.js';
import { getClockSchema, runBatchSchema, setClockSchema } from './sandbox-execution.schemas.js';

export interface SandboxExecutionRouteOptions {
  readonly clock: BankClock;
  readonly sandboxClock: SandboxClockService;
  readonly runner: BatchRunner;
  readonly batchTimes: readonly BatchTime[];
}

/** `/v1/sandbox/clock` and `/v1/sandbox/batch-runs` (issue 7): time and execution under the TPP's control. */
export const sandboxExecutionRoutes: FastifyPluginAsyncTypebox<SandboxExecutionRouteOptions> = async (
  app,
  { clock, sandboxClock, runner, batchTimes },
) => {
  app.get('/clock', { schema: getClockSchema }, async (request) => sandboxClock.view(callerOf(request).tppId));

  app.post('/clock', { schema: setClockSchema }, async (request) => sandboxClock.set(callerOf(request), request.body));

  // 200, not 201: the answer is what the run did; the run is no resource a TPP reads later.
  app.post('/batch-runs', { schema: runBatchSchema }, async (request) => {
    const { tppId } = callerOf(request);
    const now = await clock.now(tppId);
    const report = await runner.run('requested', tppId);
    return {
      batchRunId: report.batchRunId,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      durationMs: report.durationMs,
      today: todayIn(BANK_TIME_ZONE, now),
      lastRunOfDay: isLastRunOfDay(now, batchTimes),
      counts: report.counts,
    };
  });
};
