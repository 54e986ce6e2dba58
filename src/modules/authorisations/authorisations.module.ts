import type { AppModule } from '../../app-module.js';
import type { AuthorisationService } from './authorisation.service.js';
import { installExpirySweep } from './expiry-sweep.js';

/** The SCA flow's own job: authorisations past their time fail, old code attempts are purged. */
export function authorisationsModule(authorisations: AuthorisationService): AppModule {
  return {
    name: 'authorisations',
    jobs: (app) => installExpirySweep(app, authorisations),
  };
}
