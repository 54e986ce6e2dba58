import type { AppModule } from '../../app-module.js';
import { installRepeatingJob } from '../../repeating-job.js';
import { psuOverviewRoutes, type PsuOverviewRouteOptions } from './psu-overview.routes.js';

/** How often ended visits and expired links are deleted. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The PSU's own page of consents and payments under `/psu/consents`: unsigned (a browser), HTML,
 * outside the API's front door. Its job deletes the visits that ended and the sandbox links that
 * expired, so a logged-in PSU's visit is gone within a minute of its end even when no one else
 * comes by.
 */
export function psuOverviewModule(options: PsuOverviewRouteOptions): AppModule {
  return {
    name: 'psu-overview',
    rootRoutes: async (app) => app.register(psuOverviewRoutes, { prefix: '/psu/consents', ...options }),
    jobs: (app) =>
      installRepeatingJob(app, { name: 'PSU page sweep', intervalMs: SWEEP_INTERVAL_MS, run: () => options.overview.purgeEnded() }),
  };
}
