import type { AppModule } from '../../app-module.js';
import { scaRedirectRoutes, scaRouterRefusal, type ScaRedirectOptions } from './sca-redirect.routes.js';

const PREFIX = '/sca';

/**
 * The PSU's SCA pages under `/sca`: unsigned (a browser), HTML, outside the API's front door. A
 * request the router refuses there gets a page too: a PSU's browser gets no JSON.
 */
export function scaRedirectModule(options: ScaRedirectOptions): AppModule {
  return {
    name: 'sca-redirect',
    rootRoutes: async (app) => app.register(scaRedirectRoutes, { prefix: PREFIX, ...options }),
    routerRefusals: { prefix: PREFIX, answer: scaRouterRefusal(options) },
  };
}
