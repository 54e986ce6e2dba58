import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
  /**
   * Paths outside `/v1` the module answers in a form of its own (the PSU's HTML pages), and its
   * answer there to a request the router refuses before any route, hook or error handler of the
   * module's scope runs (an id longer than the router takes, a malformed percent-encoding), given
   * the status the API answers it with. Elsewhere such a request gets the API's error body.
   */
  readonly routerRefusals?: {
    /** The paths' prefix: the prefix itself and every path below it (`/sca`, `/sca/…`). */
    readonly prefix: string;
    answer(status: number, request: FastifyRequest, reply: FastifyReply): FastifyReply;
  };
  /** Starts the module's jobs with the server (hooks on `app`) and stops them with it. */
  readonly jobs?: (app: FastifyInstance) => void;
}
