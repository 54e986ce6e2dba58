import type { FastifyInstance } from 'fastify';

export interface RepeatingJob {
  /** What the log calls it when a run fails. */
  readonly name: string;
  readonly intervalMs: number;
  /** Runs once as the server gets ready, before the first run; a failure stops the start. */
  readonly start?: () => Promise<void>;
  readonly run: () => Promise<unknown>;
}

/**
 * Runs `job` every `intervalMs` while the server is ready: one run at a time (a run still going
 * when the next is due skips that turn), a failure logged and tried again next time, the timer
 * never keeping the process alive, and on close no new run while the one under way finishes
 * before the database closes.
 */
export function installRepeatingJob(app: FastifyInstance, job: RepeatingJob): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  app.addHook('onReady', async () => {
    await job.start?.();
    timer = setInterval(() => {
      if (running) return;
      // Through a promise, so a run that throws at once is logged like one that fails later.
      running = Promise.resolve()
        .then(job.run)
        .catch((error: unknown) => app.log.error({ err: error }, `${job.name} failed`))
        .finally(() => {
          running = undefined;
        });
    }, job.intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
}
