import type { FastifyInstance } from 'fastify';

/**
 * One module of the application as `buildApp` composes it: what it adds to the signed `/v1` API,
 * what it serves outside it, and the background jobs that live and stop with the server. A module
 * is made from its ready services (src/app.ts builds them in dependency order); its tables are its
 * own `*.table.ts` files, gathered into the database type in src/db/database.ts.
 */
export interface AppModule {
  readonly name: string;
  /** Routes inside the `/v1` scope, behind the front door (signature, certificate, replay record). */
  readonly v1Routes?: (v1: FastifyInstance) => Promise<void>;
  /** Routes outside `/v1`, each in a scope of its own (the PSU's pages, the sandbox certificate desk). */
  readonly rootRoutes?: (app: FastifyInstance) => Promise<void>;
  /** Starts the module's jobs with the server (hooks on `app`) and stops them with it. */
  readonly jobs?: (app: FastifyInstance) => void;
}
