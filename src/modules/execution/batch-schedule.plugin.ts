import type { FastifyInstance } from 'fastify';
import type { BatchTime } from '../../domain/batch-schedule.js';
import type { BatchRunner } from './batch-runner.js';
import { startBatchScheduler } from './batch-scheduler.js';

/**
 * Ties the batch schedule to the server's life: it starts when the server is ready (first
 * finishing what a stopped server left) and stops with it. `times` undefined: this process runs
 * no schedule (switched off, or another worker runs it); a run under way still stops on close.
 */
export function installBatchSchedule(app: FastifyInstance, runner: BatchRunner, times: readonly BatchTime[] | undefined): void {
  let scheduler: ReturnType<typeof startBatchScheduler> | undefined;
  if (times) {
    app.addHook('onReady', async () => {
      scheduler = startBatchScheduler(runner, times, app.log);
    });
  }
  app.addHook('onClose', async () => {
    runner.stop();
    await scheduler?.stop();
  });
}
