import type { AppModule } from '../../app-module.js';
import { scaRedirectRoutes, type ScaRedirectOptions } from './sca-redirect.routes.js';

/** The PSU's SCA pages under `/sca`: unsigned (a browser), HTML, outside the API's front door. */
export function scaRedirectModule(options: ScaRedirectOptions): AppModule {
  return {
    name: 'sca-redirect',
    rootRoutes: async (app) => app.register(scaRedirectRoutes, { prefix: '/sca', ...options }),
  };
}
