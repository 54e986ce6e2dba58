import type { AppModule } from '../../app-module.js';
import { tppRoutes } from './tpp.routes.js';
import type { TppService } from './tpp.service.js';

/** The TPP dialogue interface: a TPP's contact address. */
export function tppsModule(tpps: TppService, publicUrl: string): AppModule {
  return {
    name: 'tpps',
    v1Routes: async (v1) => v1.register(tppRoutes, { tpps, publicUrl }),
  };
}
