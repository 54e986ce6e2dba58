import type { FastifyPluginAsync } from 'fastify';
import { accountRoutes } from './account.routes.js';
import { agreementRoutes } from './agreement.routes.js';
import { cardAccountRoutes } from './card-account.routes.js';
import { coreSystemFaultRoutes } from './core-system-fault.routes.js';
import { customerRoutes } from './customer.routes.js';
import { sandboxMapper } from './sandbox-bank.mapper.js';
import type { SandboxBank } from './sandbox-bank.service.js';
import { initializeRoutes } from './sandbox-initialize.routes.js';
import { instantPaymentFeeRoutes } from './instant-payment-fee.routes.js';
import { psuPageLinkRoutes, type PsuPageLinks } from './psu-page-link.routes.js';
import { transactionRoutes } from './transaction.routes.js';

/**
 * The mock-data API under `/v1/sandbox` (sandbox mode only; signed like every `/v1` call). Every
 * operation acts on the calling TPP's own sandbox.
 */
export const sandboxRoutes: FastifyPluginAsync<{ bank: SandboxBank; publicUrl: string; psuPageLinks: PsuPageLinks }> = async (
  app,
  { bank, publicUrl, psuPageLinks },
) => {
  const options = { bank, mapper: sandboxMapper(publicUrl) };
  await app.register(initializeRoutes, options);
  await app.register(customerRoutes, options);
  await app.register(accountRoutes, options);
  await app.register(transactionRoutes, options);
  await app.register(agreementRoutes, options);
  await app.register(cardAccountRoutes, options);
  await app.register(coreSystemFaultRoutes, options);
  await app.register(instantPaymentFeeRoutes, options);
  await app.register(psuPageLinkRoutes, { psuPageLinks });
};
