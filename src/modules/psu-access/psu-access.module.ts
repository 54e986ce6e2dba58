import type { AppModule } from '../../app-module.js';
import { psuAccessRoutes } from './psu-access.routes.js';
import type { PsuAccessService } from './psu-access.service.js';

/** The PSU pre-step: a PSU logs in once and the TPP sends its access token instead of PSU-ID. */
export function psuAccessModule(psuAccess: PsuAccessService): AppModule {
  return {
    name: 'psu-access',
    v1Routes: async (v1) => v1.register(psuAccessRoutes, { psuAccess }),
  };
}
