import type { FastifyInstance } from 'fastify';
import { installRepeatingJob } from '../../repeating-job.js';
import type { AuthorisationService } from './authorisation.service.js';

/** How often open authorisations are checked for expired links. */
const SWEEP_INTERVAL_MS = 15_000;

/**
 * Fails authorisations whose links expired although nobody opened them again, so a payment whose
 * PSU never came back is RJCT on time. Reads also expire lazily; this catches the rest. Each
 * sweep also deletes the one-time codes counted per PSU that can no longer lock anyone.
 */
export function installExpirySweep(
  app: FastifyInstance,
  authorisations: Pick<AuthorisationService, 'expireOverdue' | 'purgeCodeAttempts'>,
): void {
  installRepeatingJob(app, {
    name: 'authorisation expiry sweep',
    intervalMs: SWEEP_INTERVAL_MS,
    run: async () => {
      await authorisations.expireOverdue();
      await authorisations.purgeCodeAttempts();
    },
  });
}
