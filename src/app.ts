import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { acceptFixTable } from './domain/accept-fix.js';
import { API_RELEASE_HEADER, stateReleaseOnEveryAnswer } from './http/api-release-header.js';
import { ACCEPT_FIXES, API_RELEASE } from './release/release-notes.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Config } from './config/config.schema.js';
import { composeModules } from './compose-modules.js';
import { AppError } from './errors/app-error.js';
import { ErrorBodySchema } from './errors/error-body.js';
import {
  handleError,
  installErrorHandler,
  MAX_PATH_PARAMETER_LENGTH,
  refuseFragment,
  sendError,
  statusOfError,
  type ErrorAnswering,
} from './http/error-handler.js';
import { installFrontDoor } from './http/api-front-door.js';
import { installQueryDeclarations } from './http/query-names.js';
import { checkRequestId } from './http/headers/request-id.js';
import { clientErrorHandler, refuseTunnels } from './http/bare-socket-answers.js';
import { closeConnectionsGracefully } from './http/server-closing.js';
import { refuseBadHost } from './http/host-header.js';
import { passUnmetExpectationsOn, refuseUnmetExpectation } from './http/unmet-expectation.js';
import { installIdempotency, installIdempotencyCapture } from './http/idempotency/idempotency.plugin.js';
import { BODY_LIMIT_BYTES, installOptionalBodies, installRawJsonParser } from './http/json-body.js';
import { newRequestContext } from './http/request-context.js';
import { RouteTable } from './http/route-table.js';
import { DeferredCompiles } from './http/deferred-compiles.js';
import { sharedSerializers } from './http/schema-compilers.js';
import { installValidators } from './http/validation.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { createMetrics } from './observability/metrics.js';
import { installMetrics } from './observability/metrics.routes.js';

import type { AppDependencies } from './app-dependencies.js';
import type { AppModule } from './app-module.js';

export type { AppDependencies, V1Services } from './app-dependencies.js';

/**
 * How long a request may take to arrive, headers and body. A TPP's server sends a request of at
 * most 1 MiB in well under a second; two minutes leaves room for a slow network and none for a
 * client that holds connections open by trickling bytes.
 */
export const REQUEST_TIMEOUT_MS = 120_000;

/**
 * How long, once the server begins to close, a request still arriving has to arrive before its
 * connection is let go of (http/server-closing.ts). Well inside the 30 s an orchestrator waits
 * after SIGTERM, and longer than any request a TPP's server sends takes.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Builds the application without listening: the platform (context, errors, content types,
 * OpenAPI, health, metrics), then the modules of src/compose-modules.ts: their jobs, their routes
 * in the signed `/v1` scope behind its front door, and their routes outside it.
 */
export async function buildApp(config: Config, deps: AppDependencies): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const requestTimeoutMs = deps.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // 0 would turn Node's limit off and look at the connections every millisecond.
  if (!(requestTimeoutMs > 0)) throw new Error(`requestTimeoutMs must be positive, not ${requestTimeoutMs}`);
  const shutdownGraceMs = deps.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
  if (!(shutdownGraceMs > 0)) throw new Error(`shutdownGraceMs must be positive, not ${shutdownGraceMs}`);
  const db = deps.database.db;
  const deferredCompiles = new DeferredCompiles();
  const routes = new RouteTable();
  // Written by hand into the answers given on a bare socket (http/bare-socket-answers.ts).
  const everyAnswersHeaders = { [API_RELEASE_HEADER]: API_RELEASE };
  const errorAnswering: ErrorAnswering = { system: config.systemName, allowedMethods: (path) => routes.allowedMethods(path) };
  // The modules answering their paths' router refusals themselves (AppModule.routerRefusals), once composed below.
  let routerRefusals: readonly NonNullable<AppModule['routerRefusals']>[] = [];
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // One line per request is written by the onResponse hook below, with the fields we choose.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Requests that arrive once the server closes are refused below, with the error body.
    return503OnClosing: false,
    // A request's headers and body must arrive within this time, or it is answered 408 (through
    // clientErrorHandler below): a body sent a byte at a time would otherwise hold its connection
    // for ever (Fastify's default turns Node's limit off). Node looks at its connections every
    // quarter of it at most, and wants the headers' own limit (60 s) no longer than it.
    requestTimeout: requestTimeoutMs,
    http: {
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(requestTimeoutMs / 4)),
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      // Node answers an HTTP/1.1 request without Host with an empty 400 of its own; the front door
      // refuses it with the error body instead (http/host-header.ts).
      requireHostHeader: false,
    },
    // docs/design.md §5: `/x/` is the same resource as `/x` (a real TPP collection sends the slash).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers(deferredCompiles) } },
    // Errors the router raises before any route or hook runs (a malformed percent-encoding, an
    // over-long path parameter) get the docs/design.md §4 body too, not Fastify's own; under the
    // paths of a module that answers in a form of its own (the PSU's HTML pages), that form.
    clientErrorHandler: clientErrorHandler(config.systemName, everyAnswersHeaders),
    frameworkErrors: (error, request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const pages = routerRefusals.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
      if (pages) return void pages.answer(statusOfError(error), request, reply);
      void handleError(error, request, reply, errorAnswering);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  stateReleaseOnEveryAnswer(app.server, API_RELEASE);
  passUnmetExpectationsOn(app.server);
  refuseTunnels(app.server, config.systemName, everyAnswersHeaders, (path) => routes.allowedMethods(path));
  const closing = closeConnectionsGracefully(app, config.systemName, everyAnswersHeaders, shutdownGraceMs);

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
    // A request that arrives once the server has begun to close (Fastify closes its connection after the answer).
    if (closing.begun && !request.routeOptions.config.answersWhileClosing) throw new AppError('SERVER_CLOSING');
    // Before the query is validated, where a fragment would read as a query name.
    refuseFragment(request.raw.url);
    refuseBadHost(request.ctx.rawHeaders, request.raw);
    refuseUnmetExpectation(request.headers.expect);
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
  installValidators(app, deferredCompiles);
  // Validators and serializers compile when first used; once listening, the rest compile in the
  // background so the first request to each route does not wait for its own.
  app.decorate('compileRouteSchemas', async () => {
    const failures: unknown[] = [];
    await deferredCompiles.warmUp((error) => failures.push(error));
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} route schema(s) do not compile`);
  });
  app.addHook('onListen', async () => {
    void app.compileRouteSchemas().catch((error: unknown) => app.log.error({ err: error }, 'route schemas that do not compile'));
  });
  installRawJsonParser(app);
  installErrorHandler(app, errorAnswering);
  app.setNotFoundHandler(async (request, reply) => {
    // A path some route serves, with another method: 405, its Allow header written by sendError
    // from the same scan of the route table that found the path's methods.
    const allowed = routes.allowedMethods(request.url.split('?')[0] ?? '');
    if (allowed.length === 0) return sendError(request, reply, new AppError('ROUTE_UNKNOWN'), errorAnswering);
    return sendError(request, reply, new AppError('METHOD_NOT_ALLOWED'), { ...errorAnswering, allowedMethods: () => allowed });
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
        description: [
          'Berlin Group NextGenPSD2 access to accounts (Norwegian profile). Every /v1 request is signed per draft-cavage-http-signatures-10 with an eIDAS QSealC.',
          '### accept-fix',
          "Breaking changes a TPP may take early with the `accept-fix` (or `x-accept-fix`) header; three months after its release a fix is the default for everyone, by the TPP's sandbox clock.",
          acceptFixTable(ACCEPT_FIXES),
        ].join('\n\n'),
        // The interface release (CHANGELOG.md), not the npm package's version.
        version: API_RELEASE,
      },
      servers: [{ url: config.publicUrl }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { db, closing });
  // Prometheus /metrics. The batch runner reports each finished run with app.batchRunFinished(report),
  // which feeds the metrics and then deps.onBatchRun.
  installMetrics(app, createMetrics(db, { logger: app.log }), { onBatchRun: deps.onBatchRun });

  const services = composeModules(app, config, deps, now);
  routerRefusals = services.modules.flatMap((module) => (module.routerRefusals ? [module.routerRefusals] : []));
  for (const module of services.modules) module.jobs?.(app);
  await app.register(
    async (v1) => {
      installFrontDoor(v1, {
        ...services.frontDoor,
        signed: true,
        onTpp: (tpp) => services.tpps.recordContact(tpp),
        psuOfToken: (tpp, token) => services.psuAccess.psuOfToken(tpp, token),
      });
      installQueryDeclarations(v1);
      installOptionalBodies(v1);
      installIdempotency(v1, db, { now, maxClockSkewSeconds: config.maxClockSkewSeconds, requestLeaseSeconds: config.requestLeaseSeconds });
      for (const module of services.modules) await module.v1Routes?.(v1);
      if (deps.extraV1Routes) {
        await deps.extraV1Routes(v1, services.v1);
      }
    },
    { prefix: '/v1' },
  );
  for (const module of services.modules) await module.rootRoutes?.(app);
  return app;
}
