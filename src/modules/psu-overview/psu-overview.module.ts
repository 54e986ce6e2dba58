import type { AppModule } from '../../app-module.js';
import { psuOverviewRoutes, type PsuOverviewRouteOptions } from './psu-overview.routes.js';

/** The PSU's own page of consents and payments under `/psu/consents`: unsigned (a browser), HTML, outside the API's front door. */
export function psuOverviewModule(options: PsuOverviewRouteOptions): AppModule {
  return {
    name: 'psu-overview',
    rootRoutes: async (app) => app.register(psuOverviewRoutes, { prefix: '/psu/consents', ...options }),
  };
}
