import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TObject } from 'typebox';
import type { DbOrTx } from '../../db/create-db.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { requestHeadersOf, tppOf } from '../../http/request-context.js';
import { ResourceId, signedErrorResponses, SignedRequestHeaders } from '../../http/schemas/common.schemas.js';
import type { Psd2Role, TppIdentity } from '../../security/tpp-identity.js';
import type { AuthorisableResource } from './authorisation-start.js';
import type { AuthorisationSubjects } from './authorisation-subject.js';
import { scaStatusView } from './authorisation-views.js';
import { AuthorisationsResponse, ScaStatusResponse, StartAuthorisationBody, StartScaProcessResponse } from './authorisation.schemas.js';
import type { AuthorisationService } from './authorisation.service.js';

/** The app a module's routes plugin is given (TypeBox schemas type the requests). */
type TypeboxApp = Parameters<FastifyPluginAsyncTypebox>[0];

/**
 * One authorisation sub-resource of a parent: `authorisations`, or a payment's
 * `cancellation-authorisations`. Its names are the Berlin Group operationIds of the parent's kind.
 */
export interface AuthorisationSubresource<Parent> {
  /** The path segment below the parent. */
  readonly segment: string;
  /** The subject registered with the authorisation service for what these authorisations approve. */
  readonly purpose: keyof AuthorisationSubjects;
  /** operationIds of the start, the list and the status read; each unique in the OpenAPI document. */
  readonly operationIds: { readonly start: string; readonly list: string; readonly status: string };
  readonly tag: string;
  readonly summaries: { readonly start: string; readonly list: string };
  /**
   * The parent as a start sees it, in the starting transaction: the owner reads it again under its
   * lock where it must, and throws its refusals (its status does not allow this authorisation now).
   */
  resource(trx: DbOrTx, parent: Parent): Promise<AuthorisableResource>;
}

export interface AuthorisationSubresourceOptions<Params extends TObject, Parent> {
  readonly authorisations: Pick<AuthorisationService, 'start' | 'list' | 'find'>;
  /** The parent's path in the `/v1` scope, e.g. `/signing-baskets/:basketId`. */
  readonly parentPath: string;
  /** The parent's path parameters; the status read adds `authorisationId`. */
  readonly params: Params;
  /** The role the parent's operations need (without it: 401 ROLE_INVALID at the front door). */
  readonly requiredRole: Psd2Role;
  /**
   * The parent of the calling TPP, first on every operation: its refusals (404 RESOURCE_UNKNOWN,
   * PRODUCT_UNKNOWN, …) answer before anything about its authorisations.
   */
  find(tpp: TppIdentity, params: Static<Params>): Promise<Parent>;
  /** The id the parent's authorisations name as their resource. */
  idOf(parent: Parent): string;
  readonly subresources: readonly AuthorisationSubresource<Parent>[];
}

/** The refusal of a start-authorisation body giving one of the embedded-SCA members (EMBEDDED_SCA_MEMBERS, authorisation.schemas.ts). */
function redirectOnlyRefusal(member: string): AppError {
  return new AppError('FORMAT_ERROR', {
    path: member,
    detail: localized(
      `${member}: this bank authorises by redirect only (ASPSP-SCA-Approach: REDIRECT) and takes no PSU credentials or SCA data over this interface; start the authorisation without a body and send the PSU to _links.scaRedirect`,
      `${member}: denne banken godkjenner bare ved videresending (ASPSP-SCA-Approach: REDIRECT) og tar ikke imot kundens innloggingsopplysninger eller SCA-data her; start godkjenningen uten innhold og send kunden til _links.scaRedirect`,
    ),
  });
}

/**
 * Registers, for each sub-resource of a parent (payments, signing baskets, consents), the same
 * three operations: `POST` starts an authorisation explicitly (201 with `scaRedirect`, Location
 * and `ASPSP-SCA-Approach: REDIRECT`; it takes no body, or `{}`), `GET` lists the ids of the parent's authorisations, and
 * `GET …/{authorisationId}` reads one's scaStatus (with psuMessage when it failed). The PSU's data
 * is given on the bank's pages only (SCA by redirect), so no `PUT …/{authorisationId}` exists: 405.
 */
export function registerAuthorisationSubresource<Params extends TObject, Parent>(
  app: TypeboxApp,
  options: AuthorisationSubresourceOptions<Params, Parent>,
): void {
  const { authorisations } = options;
  const config = { requiredRole: options.requiredRole };
  const AuthorisationIdParams = Type.Object({ ...options.params.properties, authorisationId: ResourceId });
  // Every route's params schema is the parent's (plus authorisationId), so the validated params are
  // the parent's: TypeScript cannot see that through the generic schema.
  const parentOf = (tpp: TppIdentity, params: unknown) => options.find(tpp, params as Static<Params>);

  for (const subresource of options.subresources) {
    const base = `${options.parentPath}/${subresource.segment}`;
    const tags = [subresource.tag];
    const { purpose } = subresource;

    app.post(
      base,
      {
        config,
        schema: {
          operationId: subresource.operationIds.start,
          tags,
          summary: subresource.summaries.start,
          headers: SignedRequestHeaders,
          params: options.params,
          body: StartAuthorisationBody,
          response: { 201: StartScaProcessResponse, ...signedErrorResponses() },
        },
      },
      async (request, reply) => {
        // The schema lets through only the embedded-SCA members, each to be refused as such.
        const [embeddedScaMember] = Object.keys(request.body);
        if (embeddedScaMember !== undefined) throw redirectOnlyRefusal(embeddedScaMember);
        const tpp = tppOf(request);
        const parent = await parentOf(tpp, request.params);
        const started = await authorisations.start({
          tpp,
          purpose,
          segment: subresource.segment,
          headers: requestHeadersOf(request),
          resource: (trx) => subresource.resource(trx, parent),
        });
        return reply.code(201).header('location', started.location).header('aspsp-sca-approach', 'REDIRECT').send(started.body);
      },
    );

    app.get(
      base,
      {
        config,
        schema: {
          operationId: subresource.operationIds.list,
          tags,
          summary: subresource.summaries.list,
          headers: SignedRequestHeaders,
          params: options.params,
          response: { 200: AuthorisationsResponse, ...signedErrorResponses() },
        },
      },
      async (request) => {
        const tpp = tppOf(request);
        const parent = await parentOf(tpp, request.params);
        const listed = await authorisations.list(tpp.id, purpose, options.idOf(parent));
        return { authorisationIds: listed.map((authorisation) => authorisation.id) };
      },
    );

    app.get(
      `${base}/:authorisationId`,
      {
        config,
        schema: {
          operationId: subresource.operationIds.status,
          tags,
          summary: 'The scaStatus of one authorisation, with psuMessage when it failed',
          headers: SignedRequestHeaders,
          params: AuthorisationIdParams,
          response: { 200: ScaStatusResponse, ...signedErrorResponses() },
        },
      },
      async (request) => {
        const tpp = tppOf(request);
        const parent = await parentOf(tpp, request.params);
        const { authorisationId } = request.params;
        const found = await authorisations.find(tpp.id, purpose, options.idOf(parent), authorisationId);
        return scaStatusView(found, request.ctx.language);
      },
    );
  }
}
