import type { FastifyInstance } from 'fastify';
import type { AuthorisationService } from './authorisation.service.js';

/** How often open authorisations are checked for expired links. */
const SWEEP_INTERVAL_MS = 15_000;

/**
 * Fails authorisations whose links expired although nobody opened them again, so a payment whose
 * PSU never came back is RJCT on time. Reads also expire lazily; this catches the rest.
 * Runs while the server is ready, never keeps the process alive, and one sweep at a time. Each
 * sweep also deletes the one-time codes counted per PSU that can no longer lock anyone.
 */
export function installExpirySweep(
  app: FastifyInstance,
  authorisations: Pick<AuthorisationService, 'expireOverdue' | 'purgeCodeAttempts'>,
): void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (running) return;
      running = true;
      authorisations
        .expireOverdue()
        .then(() => authorisations.purgeCodeAttempts())
        .catch((error: unknown) => app.log.error({ err: error }, 'authorisation expiry sweep failed'))
        .finally(() => {
          running = false;
        });
    }, SWEEP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
