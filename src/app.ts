import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { CoreBanking } from './bank/core-banking.port.js';
import type { Config } from './config/config.schema.js';
import type { DatabaseHandle } from './db/create-db.js';
import { AppError } from './errors/app-error.js';
import { ErrorBodySchema } from './errors/error-body.js';
import { clientErrorResponse, handleError, installErrorHandler, sendError } from './http/error-handler.js';
import { installFrontDoor } from './http/api-front-door.js';
import { checkRequestId } from './http/headers/request-id.js';
import { installIdempotency, installIdempotencyCapture } from './http/idempotency/idempotency.plugin.js';
import { BODY_LIMIT_BYTES, installRawJsonParser } from './http/json-body.js';
import { newRequestContext } from './http/request-context.js';
import { RouteTable } from './http/route-table.js';
import { sharedSerializers } from './http/schema-compilers.js';
import { installValidators } from './http/validation.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { createMetrics } from './observability/metrics.js';
import { installMetrics } from './observability/metrics.routes.js';
import { paymentRoutes } from './modules/payments/payment.routes.js';
import { paymentAuthorisationRoutes } from './modules/payments/payment-authorisation.routes.js';
import { createPaymentApprover, paymentApprovalSubject, paymentCancellationSubject } from './modules/payments/payment-approval.js';
import { createSigningBasketsService } from './modules/signing-baskets/signing-basket.service.js';
import { signingBasketApprovalSubject } from './modules/signing-baskets/signing-basket-approval.js';
import { signingBasketRoutes } from './modules/signing-baskets/signing-basket.routes.js';
import { createAuthorisationService, type AuthorisationService } from './modules/authorisations/authorisation.service.js';
import { createAccountInformation } from './modules/accounts/account-information.js';
import { installExpirySweep } from './modules/authorisations/expiry-sweep.js';
import { createPsuAccessService } from './modules/psu-access/psu-access.service.js';
import { psuAccessRoutes } from './modules/psu-access/psu-access.routes.js';
import { scaRedirectRoutes } from './modules/sca-redirect/sca-redirect.routes.js';
import type { PsuAuthenticator } from './bank/psu-authenticator.port.js';
import { createSandboxPsuAuthenticator } from './modules/sandbox/sandbox-psu-authenticator.js';
import { createPaymentsService, type PaymentsService } from './modules/payments/payment.service.js';
import type { BatchRunObserver } from './modules/execution/batch-run-report.js';
import { createBankClock } from './modules/clock/bank-clock.js';
import { createSandboxClockService } from './modules/clock/sandbox-clock.service.js';
import { installBatchSchedule } from './modules/execution/batch-schedule.plugin.js';
import { createBatchRunner } from './modules/execution/batch-runner.js';
import { createPaymentExecutor } from './modules/execution/payment-executor.js';
import { createOutcomeFeedPoller, installOutcomeFeed } from './modules/execution/outcome-feed.js';
import { sandboxExecutionRoutes } from './modules/execution/sandbox-execution.routes.js';
import { createLedger } from './modules/ledger/ledger.service.js';
import { createSandboxBank } from './modules/sandbox/sandbox-bank.service.js';
import { createSandboxCoreBanking } from './modules/sandbox/sandbox-core-banking.js';
import { sandboxRoutes } from './modules/sandbox/sandbox.routes.js';
import { tppCertificateRoutes } from './modules/sandbox/tpp-certificate.routes.js';
import { createTppCertificateDesk } from './modules/sandbox/tpp-certificate.service.js';
import { tppRoutes } from './modules/tpps/tpp.routes.js';
import { createTppService } from './modules/tpps/tpp.service.js';
import { CertificateVerifier } from './security/certificates/certificate-verifier.js';
import type { SandboxCa } from './security/certificates/sandbox-ca.js';
import type { TrustStore } from './security/certificates/trust-store.js';

/** Production mode: how often what has fallen due is submitted to the bank. */
const PRODUCTION_SUBMIT_INTERVAL_MS = 60_000;
/** How often the bank's outcome feed is read. */
const OUTCOME_FEED_INTERVAL_MS = 1_000;

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
   * adapter. Payments execute through its submitPayment and its outcome feed. Absent: the sandbox
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
  /** Extra routes registered inside the signed `/v1` scope (tests of the front door use this). */
  readonly extraV1Routes?: ((scope: FastifyInstance, services: V1Services) => Promise<void>) | undefined;
}

/** What the `/v1` modules are built on. */
export interface V1Services {
  readonly coreBanking: CoreBanking;
  readonly payments: PaymentsService;
  readonly authorisations: AuthorisationService;
}

/**
 * Builds the application without listening: the platform (context, errors, content types,
 * OpenAPI), then the API scopes with their front door, then each module's routes.
 */
export async function buildApp(config: Config, deps: AppDependencies): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const db = deps.database.db;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // One line per request is written by the onResponse hook below, with the fields we choose.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    // docs/design.md §5: `/x/` is the same resource as `/x` (a real TPP collection sends the slash).
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers } },
    // Errors the router raises before any route or hook runs (a malformed percent-encoding, an
    // over-long path parameter) get the docs/design.md §4 body too, not Fastify's own.
    clientErrorHandler: (error, socket) => {
      if (socket.writable) {
        socket.end(clientErrorResponse(error, config.systemName));
      } else {
        socket.destroy(error);
      }
    },
    frameworkErrors: (error, request, reply) => void handleError(error, request, reply, config.systemName),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const routes = new RouteTable();
  routes.track(app);
  app.decorateRequest('ctx', null as never);
  app.addHook('onRequest', async (request, reply) => {
    request.ctx = newRequestContext(request);
    const requestId = request.headers['x-request-id'];
    if (typeof requestId === 'string' && checkRequestId(requestId).ok) {
      reply.header('x-request-id', requestId);
      // UUIDs are case-insensitive: the lower-case form keys idempotency, so a retry that changes
      // the case is still recognised as the same request.
      request.ctx.requestId = requestId.toLowerCase();
    }
    reply.header('content-language', request.ctx.language);
    // docs/design.md §5: no answer is ever read as anything but its declared type.
    reply.header('x-content-type-options', 'nosniff');
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        requestId: request.ctx.requestId,
        tpp: request.ctx.tpp?.id,
        method: request.method,
        operation: request.routeOptions.schema?.operationId ?? request.routeOptions.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
  installValidators(app);
  installRawJsonParser(app);
  installErrorHandler(app, config.systemName);
  app.setNotFoundHandler(async (request, reply) => {
    const allowed = routes.allowedMethods(request.url.split('?')[0] ?? '');
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(request, reply, new AppError('METHOD_NOT_ALLOWED'), config.systemName);
    }
    return sendError(request, reply, new AppError('ROUTE_UNKNOWN'), config.systemName);
  });
  installIdempotencyCapture(app, db, {
    now,
    maxClockSkewSeconds: config.maxClockSkewSeconds,
    requestLeaseSeconds: config.requestLeaseSeconds,
  });
  // Answers are compressed when asked; request bodies are not inflated: the Digest covers the bytes as sent.
  await app.register(compress, { encodings: ['gzip', 'deflate'], globalDecompression: false });

  app.addSchema(ErrorBodySchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'nordic-xs2a',
        description:
          'Berlin Group NextGenPSD2 access to accounts (Norwegian profile). Every /v1 request is signed per draft-cavage-http-signatures-10 with an eIDAS QSealC.',
        version: '0.1.0',
      },
      servers: [{ url: config.publicUrl }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { db });
  // Prometheus /metrics. The batch runner reports each finished run with app.batchRunFinished(report),
  // which feeds the metrics and then deps.onBatchRun.
  installMetrics(app, createMetrics(db, { logger: app.log }), { onBatchRun: deps.onBatchRun });

  const tpps = createTppService(db, now);
  const coreBanking: CoreBanking = deps.coreBanking ?? createSandboxCoreBanking(db, createLedger(now), now, config.nokRates);
  const authorisations = createAuthorisationService(db, now, deps.psuAuthenticator ?? createSandboxPsuAuthenticator(db), {
    publicUrl: config.publicUrl,
    expirySeconds: config.scaExpirySeconds,
    codeLock: {
      attempts: config.scaCodeLockAttempts,
      windowMinutes: config.scaCodeLockWindowMinutes,
      lockMinutes: config.scaCodeLockMinutes,
    },
    sandbox: config.mode === 'sandbox',
  });
  const psuAccess = createPsuAccessService(db, now, authorisations, { tokenLifetimeSeconds: config.psuTokenLifetimeSeconds });
  const clock = createBankClock(db, now, config.mode === 'sandbox');
  const sandboxMode = config.mode === 'sandbox';
  const executor = createPaymentExecutor(db, coreBanking, app.log);
  // In the sandbox, the sandbox bank's batch runs at its five times a day (and on a TPP's request)
  // decide when due payments are submitted; in production the server submits a payment when it
  // is approved on its date, and at each interval what has fallen due since, and the bank decides.
  const runner = createBatchRunner({
    db,
    clock,
    executor,
    batchTimes: sandboxMode ? config.batchTimes : [],
    parallelTenants: deps.database.dialect === 'postgres' ? 4 : 1,
    observer: (report) => app.batchRunFinished(report),
    logger: app.log,
  });
  // One process of a deployment (every worker but one passes false) resumes stopped runs and, when
  // the schedule is on, runs it.
  const runsSchedule = deps.runsBatchSchedule !== false;
  installBatchSchedule(app, runner, {
    times: runsSchedule && config.batchSchedule && sandboxMode ? config.batchTimes : undefined,
    intervalMs: runsSchedule && config.batchSchedule && !sandboxMode ? PRODUCTION_SUBMIT_INTERVAL_MS : undefined,
    resume: runsSchedule,
  });
  if (runsSchedule) {
    installOutcomeFeed(app, createOutcomeFeedPoller({ db, coreBanking, executor, clock, logger: app.log }), OUTCOME_FEED_INTERVAL_MS);
  }
  const payments = createPaymentsService(db, coreBanking, { authorisations, psuAccess }, clock, {
    publicUrl: config.publicUrl,
    maxDaysAhead: config.maxExecutionDaysAhead,
    nokRates: config.nokRates,
    sandbox: config.mode === 'sandbox',
  });
  const signingBaskets = createSigningBasketsService(db, coreBanking, { authorisations, psuAccess }, now, { publicUrl: config.publicUrl });
  const approver = createPaymentApprover(coreBanking, authorisations, clock, executor, config.nokRates, {
    submitWhenApproved: !sandboxMode,
  });
  authorisations.registerSubject('payment', paymentApprovalSubject(db, approver));
  authorisations.registerSubject('payment-cancellation', paymentCancellationSubject(db, coreBanking));
  authorisations.registerSubject('signing-basket', signingBasketApprovalSubject(db, approver));
  const accountInformation = createAccountInformation({ db, coreBanking, authorisations, clock, publicUrl: config.publicUrl });
  const services: V1Services = { coreBanking, payments, authorisations };
  installExpirySweep(app, authorisations);
  const certificates = new CertificateVerifier(deps.trustStore, config.blockedCertificates);
  await app.register(
    async (v1) => {
      installFrontDoor(v1, {
        signed: true,
        requireSignature: config.requireSignature,
        maxClockSkewSeconds: config.maxClockSkewSeconds,
        certificates,
        now,
        onTpp: (tpp) => tpps.recordContact(tpp),
        psuOfToken: (tpp, token) => psuAccess.psuOfToken(tpp, token),
      });
      installIdempotency(v1, db, { now, maxClockSkewSeconds: config.maxClockSkewSeconds, requestLeaseSeconds: config.requestLeaseSeconds });
      await v1.register(tppRoutes, { tpps, publicUrl: config.publicUrl });
      await v1.register(paymentRoutes, { payments });
      await v1.register(paymentAuthorisationRoutes, { payments });
      await v1.register(signingBasketRoutes, { signingBaskets });
      await v1.register(psuAccessRoutes, { psuAccess });
      await v1.register(accountInformation.routes);
      if (config.mode === 'sandbox') {
        // The mock-data API is not part of a production API (docs/design.md §6).
        await v1.register(sandboxRoutes, {
          prefix: '/sandbox',
          bank: createSandboxBank(db, createLedger(now), now),
          publicUrl: config.publicUrl,
        });
        await v1.register(sandboxExecutionRoutes, {
          prefix: '/sandbox',
          sandboxClock: createSandboxClockService(db, clock, config.batchTimes),
          runner,
        });
      }
      if (deps.extraV1Routes) {
        await deps.extraV1Routes(v1, services);
      }
    },
    { prefix: '/v1' },
  );

  // The PSU's pages: unsigned (a browser), HTML, outside the API's front door.
  const scaBasePath = `${new URL(config.publicUrl).pathname.replace(/\/$/, '')}/sca`;
  await app.register(scaRedirectRoutes, {
    prefix: '/sca',
    authorisations,
    bankName: config.bankName,
    sandbox: config.mode === 'sandbox',
    basePath: scaBasePath,
    secureCookie: new URL(config.publicUrl).protocol === 'https:',
  });

  if (config.mode === 'sandbox' && deps.sandboxCa) {
    const ca = deps.sandboxCa;
    await app.register(
      async (sandbox) => {
        installFrontDoor(sandbox, {
          signed: false,
          verifiesSignatureWhenSent: true,
          requireSignature: config.requireSignature,
          maxClockSkewSeconds: config.maxClockSkewSeconds,
          certificates,
          now,
          onTpp: async () => undefined,
        });
        await sandbox.register(tppCertificateRoutes, { ca, desk: createTppCertificateDesk(db, ca, now, (id) => tpps.isKnown(id)) });
      },
      { prefix: '/sandbox' },
    );
  }
  return app;
}
