import pino from 'pino';
import type { Config } from '../config/config.schema.js';
import { openServer } from '../server.js';

/** `nordic-xs2a serve`: opens the database, the trust store and the app, and listens. */
export async function serveCommand(config: Config): Promise<number> {
  // Asynchronous logging keeps request logs off the hot path (research/stack-probe.md).
  const destination = pino.destination({ sync: false, minLength: 4096 });
  const logger = pino({ level: config.logLevel, base: { service: config.systemName } }, destination);
  const server = await openServer(config, { logger });
  await server.app.listen({ port: config.port, host: config.host });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Fastify has logged the address; this adds what was started.
  logger.info({ mode: config.mode, database: config.database.dialect, publicUrl: config.publicUrl }, 'ready');
  destination.flushSync();
  process.stdout.write(`nordic-xs2a ${config.mode} listening on http://${config.host}:${port} (docs: ${config.publicUrl}/docs)\n`);

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      server.close().then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  destination.flushSync();
  return 0;
}
