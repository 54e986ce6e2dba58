import type { FastifyInstance } from 'fastify';
import type { BatchRunner } from './batch-runner.js';
import { startBatchScheduler, type BatchSchedulerOptions } from './batch-scheduler.js';

/**
 * Ties the batch schedule to the server's life: it starts when the server is ready (first
 * finishing what a stopped server left, when this process is the one that does) and stops with
 * it. A run under way (scheduled or requested) stops on close after its current chunk, and stays
 * open for the next start to finish.
 */
export function installBatchSchedule(app: FastifyInstance, runner: BatchRunner, options: Omit<BatchSchedulerOptions, 'logger'>): void {
  let scheduler: ReturnType<typeof startBatchScheduler> | undefined;
  app.addHook('onReady', async () => {
    scheduler = startBatchScheduler(runner, { ...options, logger: app.log });
  });
  app.addHook('onClose', async () => {
    runner.stop();
    await scheduler?.stop();
  });
}
