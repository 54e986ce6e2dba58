import type { AppModule } from '../../app-module.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import { signingBasketRoutes } from './signing-basket.routes.js';
import type { SigningBasketsService } from './signing-basket.service.js';

/** Signing baskets: several payments approved with one SCA. */
export function signingBasketsModule(signingBaskets: SigningBasketsService, authorisations: AuthorisationService): AppModule {
  return {
    name: 'signing-baskets',
    v1Routes: async (v1) => v1.register(signingBasketRoutes, { signingBaskets, authorisations }),
  };
}
