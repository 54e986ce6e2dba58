import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { CoreBanking } from './bank/core-banking.port.js';
import type { PsuAuthenticator } from './bank/psu-authenticator.port.js';
import type { DatabaseHandle } from './db/create-db.js';
import type { AuthorisationService } from './modules/authorisations/authorisation.service.js';
import type { BatchRunObserver } from './modules/execution/batch-run-report.js';
import type { PaymentsService } from './modules/payments/payment.service.js';
import type { SandboxCa } from './security/certificates/sandbox-ca.js';
import type { TrustStore } from './security/certificates/trust-store.js';

/** What `buildApp` is given from the outside world (src/server.ts opens it; tests pass their own). */
export interface AppDependencies {
  readonly database: DatabaseHandle;
  readonly trustStore: TrustStore;
  /** Present in sandbox mode: issues QSealCs through `POST /sandbox/tpp-certificates`. */
  readonly sandboxCa?: SandboxCa | undefined;
  readonly logger?: FastifyBaseLogger | undefined;
  /** The clock; tests move it. */
  readonly now?: (() => Date) | undefined;
  /**
   * The bank behind the API (docs/design.md §1: the port in src/bank/core-banking.port.ts): a bank's own
   * adapter (required in production, src/server.ts loads it from XS2A_BANK_ADAPTER). Payments
   * execute through its submitPayment and its outcome feed. Absent in sandbox mode: the sandbox
   * bank, its mock data and ledger in this database.
   */
  readonly coreBanking?: CoreBanking | undefined;
  /** The bank's authenticator behind the SCA pages. Absent: the sandbox's (one documented code). */
  readonly psuAuthenticator?: PsuAuthenticator | undefined;
  /**
   * Whether this process runs the scheduled batch runs (sandbox) or the submission of what falls
   * due (production), and polls the bank's outcome feed (default true; false in all but one worker).
   */
  readonly runsBatchSchedule?: boolean | undefined;
  /** Observes every finished batch run (the metrics). */
  readonly onBatchRun?: BatchRunObserver | undefined;
  /**
   * How long a request may take to arrive, headers and body (default REQUEST_TIMEOUT_MS in
   * app.ts); tests shorten it.
   */
  readonly requestTimeoutMs?: number | undefined;
  /** How long a request still arriving at shutdown may take (default SHUTDOWN_GRACE_MS in app.ts); tests shorten it. */
  readonly shutdownGraceMs?: number | undefined;
  /** Extra routes registered inside the signed `/v1` scope (tests of the front door use this). */
  readonly extraV1Routes?: ((scope: FastifyInstance, services: V1Services) => Promise<void>) | undefined;
}

/** What the `/v1` modules are built on. */
export interface V1Services {
  readonly coreBanking: CoreBanking;
  readonly payments: PaymentsService;
  readonly authorisations: AuthorisationService;
}
