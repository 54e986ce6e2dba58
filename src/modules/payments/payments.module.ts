import type { AppModule } from '../../app-module.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import { paymentAuthorisationRoutes } from './payment-authorisation.routes.js';
import { paymentRoutes } from './payment.routes.js';
import type { PaymentsService } from './payment.service.js';

/** Payment initiation: single, bulk and periodic payments, their status, cancellation and authorisations. */
export function paymentsModule(payments: PaymentsService, authorisations: AuthorisationService): AppModule {
  return {
    name: 'payments',
    v1Routes: async (v1) => {
      await v1.register(paymentRoutes, { payments });
      await v1.register(paymentAuthorisationRoutes, { payments, authorisations });
    },
  };
}
