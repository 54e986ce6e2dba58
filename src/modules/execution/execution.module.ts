import type { AppModule } from '../../app-module.js';
import type { SandboxClockService } from '../clock/sandbox-clock.service.js';
import type { BatchRunner } from './batch-runner.js';
import { installBatchSchedule } from './batch-schedule.plugin.js';
import type { BatchSchedulerOptions } from './batch-scheduler.js';
import { installOutcomeFeed, type OutcomeFeedPoller } from './outcome-feed.js';
import { sandboxExecutionRoutes } from './sandbox-execution.routes.js';

export interface ExecutionModuleOptions {
  readonly runner: BatchRunner;
  /** When due payments are submitted (sandbox: the batch times; production: an interval) and whether stopped runs resume here. */
  readonly schedule: Omit<BatchSchedulerOptions, 'logger'>;
  /** The bank's outcome feed, polled every `intervalMs` by the one process that submits (absent in the others). */
  readonly outcomeFeed?: { readonly poller: OutcomeFeedPoller; readonly intervalMs: number } | undefined;
  /** Sandbox mode: the sandbox clock and batch runs on request, under `/v1/sandbox`. */
  readonly sandboxClock?: SandboxClockService | undefined;
}

/** Execution: batch runs and submissions to the bank, the outcome feed, and (sandbox) the clock. */
export function executionModule(options: ExecutionModuleOptions): AppModule {
  const { runner, sandboxClock, outcomeFeed } = options;
  return {
    name: 'execution',
    jobs: (app) => {
      installBatchSchedule(app, runner, options.schedule);
      if (outcomeFeed) installOutcomeFeed(app, outcomeFeed.poller, outcomeFeed.intervalMs);
    },
    ...(sandboxClock && {
      v1Routes: async (v1) => v1.register(sandboxExecutionRoutes, { prefix: '/sandbox', sandboxClock, runner }),
    }),
  };
}
