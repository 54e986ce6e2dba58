import type { FastifyInstance } from 'fastify';
import type { AppDependencies, V1Services } from './app-dependencies.js';
import type { AppModule } from './app-module.js';
import type { CoreBanking } from './bank/core-banking.port.js';
import type { Config } from './config/config.schema.js';
import type { FrontDoorOptions } from './http/api-front-door.js';
import { createPaymentApprover, paymentApprovalSubject, paymentCancellationSubject } from './modules/payments/payment-approval.js';
import { createSigningBasketsService } from './modules/signing-baskets/signing-basket.service.js';
import { signingBasketApprovalSubject } from './modules/signing-baskets/signing-basket-approval.js';
import { createAuthorisationService } from './modules/authorisations/authorisation.service.js';
import { createPsuAccessService, type PsuAccessService } from './modules/psu-access/psu-access.service.js';
import type { PsuAuthenticator } from './bank/psu-authenticator.port.js';
import { createSandboxPsuAuthenticator } from './modules/sandbox/sandbox-psu-authenticator.js';
import { createPaymentsService } from './modules/payments/payment.service.js';
import { createBankClock } from './modules/clock/bank-clock.js';
import { createSandboxClockService } from './modules/clock/sandbox-clock.service.js';
import { createBatchRunner } from './modules/execution/batch-runner.js';
import { createPaymentExecutor } from './modules/execution/payment-executor.js';
import { createOutcomeFeedPoller } from './modules/execution/outcome-feed.js';
import { executionModule } from './modules/execution/execution.module.js';
import { createAccountInformation } from './modules/accounts/account-information.js';
import { authorisationsModule } from './modules/authorisations/authorisations.module.js';
import { paymentsModule } from './modules/payments/payments.module.js';
import { psuAccessModule } from './modules/psu-access/psu-access.module.js';
import { sandboxModule } from './modules/sandbox/sandbox.module.js';
import { scaRedirectModule } from './modules/sca-redirect/sca-redirect.module.js';
import { psuOverviewModule } from './modules/psu-overview/psu-overview.module.js';
import { createPsuOverviewService } from './modules/psu-overview/psu-overview.service.js';
import { paymentStore } from './modules/payments/payment-store.js';
import { signingBasketsModule } from './modules/signing-baskets/signing-baskets.module.js';
import { tppsModule } from './modules/tpps/tpps.module.js';
import { createNotificationService } from './modules/notifications/notification.service.js';
import { notificationsModule } from './modules/notifications/notifications.module.js';
import { createLedger } from './modules/ledger/ledger.service.js';
import { createSandboxBank } from './modules/sandbox/sandbox-bank.service.js';
import { createSandboxCoreBanking } from './modules/sandbox/sandbox-core-banking.js';
import { createTppCertificateDesk } from './modules/sandbox/tpp-certificate.service.js';
import { createTppService, type TppService } from './modules/tpps/tpp.service.js';
import { CertificateVerifier } from './security/certificates/certificate-verifier.js';

/** Production mode: how often what has fallen due is submitted to the bank. */
const PRODUCTION_SUBMIT_INTERVAL_MS = 60_000;
/** How often the bank's outcome feed is read. */
const OUTCOME_FEED_INTERVAL_MS = 1_000;

/**
 * The bank behind the API: in production always the bank's own adapter (XS2A_BANK_ADAPTER), so
 * no sandbox code is wired there; in the sandbox the sandbox bank, unless a test passes another.
 */
function bankOf(config: Config, deps: AppDependencies, now: () => Date): { coreBanking: CoreBanking; psuAuthenticator: PsuAuthenticator } {
  if (config.mode === 'production') {
    if (!deps.coreBanking || !deps.psuAuthenticator) {
      throw new Error("production mode runs on the bank's adapter: coreBanking and psuAuthenticator are both required (XS2A_BANK_ADAPTER)");
    }
    return { coreBanking: deps.coreBanking, psuAuthenticator: deps.psuAuthenticator };
  }
  const db = deps.database.db;
  return {
    coreBanking: deps.coreBanking ?? createSandboxCoreBanking(db, createLedger(now), now, config.nokRates),
    psuAuthenticator: deps.psuAuthenticator ?? createSandboxPsuAuthenticator(db),
  };
}

export interface ComposedModules {
  readonly modules: readonly AppModule[];
  readonly v1: V1Services;
  readonly tpps: TppService;
  readonly psuAccess: PsuAccessService;
  /** The front door's settings shared by the `/v1` scope and the sandbox certificate desk. */
  readonly frontDoor: Omit<FrontDoorOptions, 'signed' | 'onTpp'>;
}

/**
 * The composition root: every service made once, in dependency order (the bank first, then the
 * SCA flow, execution, and the resources that use them), and the modules that serve them, in the
 * order their routes are registered. Sandbox modules are made in sandbox mode only.
 */
export function composeModules(app: FastifyInstance, config: Config, deps: AppDependencies, now: () => Date): ComposedModules {
  const db = deps.database.db;
  const sandboxMode = config.mode === 'sandbox';
  const tpps = createTppService(db, now);
  const { coreBanking, psuAuthenticator } = bankOf(config, deps, now);
  // Wrong one-time codes lock a PSU's login on the SCA pages and on its own page alike.
  const codeLock = {
    attempts: config.scaCodeLockAttempts,
    windowMinutes: config.scaCodeLockWindowMinutes,
    lockMinutes: config.scaCodeLockMinutes,
  };
  const authorisations = createAuthorisationService(db, now, psuAuthenticator, {
    publicUrl: config.publicUrl,
    expirySeconds: config.scaExpirySeconds,
    loginCodeSeconds: config.psuLoginCodeSeconds,
    codeLock,
    sandbox: sandboxMode,
  });
  const psuAccess = createPsuAccessService(db, now, authorisations, { tokenLifetimeSeconds: config.psuTokenLifetimeSeconds });
  const notifications = createNotificationService({ enabled: config.notifications, sandbox: sandboxMode });
  const clock = createBankClock(db, now, sandboxMode);
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
  // One process of a deployment (every worker but one passes false) resumes stopped runs, runs
  // the schedule when it is on, and polls the bank's outcome feed.
  const runsSchedule = deps.runsBatchSchedule !== false;
  const payments = createPaymentsService(db, coreBanking, { authorisations, psuAccess, notifications }, clock, {
    publicUrl: config.publicUrl,
    maxDaysAhead: config.maxExecutionDaysAhead,
    nokRates: config.nokRates,
    sandbox: sandboxMode,
  });
  const signingBaskets = createSigningBasketsService(db, coreBanking, { authorisations, psuAccess, notifications }, now, {
    publicUrl: config.publicUrl,
  });
  const approver = createPaymentApprover(coreBanking, authorisations, clock, executor, config.nokRates, {
    submitWhenApproved: !sandboxMode,
  });
  authorisations.registerSubject('payment', paymentApprovalSubject(db, approver));
  authorisations.registerSubject('payment-cancellation', paymentCancellationSubject(db, coreBanking));
  authorisations.registerSubject('signing-basket', signingBasketApprovalSubject(db, approver));
  const accountInformation = createAccountInformation({
    db,
    coreBanking,
    authorisations,
    notifications,
    clock,
    publicUrl: config.publicUrl,
    nokRates: config.nokRates,
  });

  const psuOverview = createPsuOverviewService(
    { db, now, authenticator: psuAuthenticator, coreBanking, consents: accountInformation.consents, payments: paymentStore, tpps },
    { publicUrl: config.publicUrl, sandbox: sandboxMode, codeLock },
  );
  const publicPath = new URL(config.publicUrl).pathname.replace(/\/$/, '');

  const frontDoor = {
    requireSignature: config.requireSignature,
    maxClockSkewSeconds: config.maxClockSkewSeconds,
    certificates: new CertificateVerifier(deps.trustStore, config.blockedCertificates),
    now,
  };
  const modules: AppModule[] = [
    tppsModule(tpps, config.publicUrl),
    paymentsModule(payments, authorisations),
    signingBasketsModule(signingBaskets, authorisations),
    psuAccessModule(psuAccess),
    accountInformation.module,
    authorisationsModule(authorisations),
    executionModule({
      runner,
      schedule: {
        times: runsSchedule && config.batchSchedule && sandboxMode ? config.batchTimes : undefined,
        intervalMs: runsSchedule && config.batchSchedule && !sandboxMode ? PRODUCTION_SUBMIT_INTERVAL_MS : undefined,
        resume: runsSchedule,
      },
      outcomeFeed: runsSchedule
        ? { poller: createOutcomeFeedPoller({ db, coreBanking, executor, clock, logger: app.log }), intervalMs: OUTCOME_FEED_INTERVAL_MS }
        : undefined,
      sandboxClock: sandboxMode ? createSandboxClockService(db, clock, config.batchTimes) : undefined,
    }),
    ...(config.notifications
      ? [
          notificationsModule({
            db,
            now,
            seal: {
              keyFile: config.notificationSealKeyFile,
              certificateFile: config.notificationSealCertificateFile,
              dataDir: config.dataDir,
              bankName: config.bankName,
            },
            delivery: {
              timeoutMs: config.notificationTimeoutMs,
              retryBaseMs: config.notificationRetryBaseMs,
              maxAttempts: config.notificationMaxAttempts,
              allowLoopback: sandboxMode,
            },
            pollMs: config.notificationPollMs,
          }),
        ]
      : []),
    scaRedirectModule({
      authorisations,
      bankName: config.bankName,
      sandbox: sandboxMode,
      loginCodeSeconds: config.psuLoginCodeSeconds,
      basePath: `${publicPath}/sca`,
      secureCookie: new URL(config.publicUrl).protocol === 'https:',
    }),
    psuOverviewModule({
      overview: psuOverview,
      bankName: config.bankName,
      sandbox: sandboxMode,
      basePath: `${publicPath}/psu/consents`,
      secureCookie: new URL(config.publicUrl).protocol === 'https:',
    }),
  ];
  if (sandboxMode) {
    // The mock-data API and the certificate desk are not part of a production API (docs/design.md §6).
    const ca = deps.sandboxCa;
    modules.push(
      sandboxModule({
        bank: createSandboxBank(db, createLedger(now), clock),
        publicUrl: config.publicUrl,
        psuPageLinks: psuOverview,
        desk: ca && { ca, desk: createTppCertificateDesk(db, ca, now, (id) => tpps.isKnown(id)) },
        deskFrontDoor: frontDoor,
      }),
    );
  }
  return { modules, v1: { coreBanking, payments, authorisations }, tpps, psuAccess, frontDoor };
}
