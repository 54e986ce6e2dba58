import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NoBody, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import type { PsuOverviewService } from '../psu-overview/psu-overview.service.js';
import { callerOf } from './sandbox-request.js';

/** What the route needs of the PSU's page: links to it on the caller's sandbox bank. */
export type PsuPageLinks = Pick<PsuOverviewService, 'issuePageLink'>;

const PsuPageLink = Type.Object({
  href: Type.String({
    description:
      "The PSU's own page of consents and payments (`/psu/consents`) on your sandbox bank: open it in a browser, log in with a " +
      "PSU-ID of your sandbox's customers and the one-time code 123456. The link is a secret: whoever has it can open your sandbox bank's page.",
  }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the link stops working (24 hours after it was made)' }),
});

/**
 * `POST /v1/sandbox/psu-page-links`. Every TPP's sandbox bank has the same seeded PSU-IDs and the
 * one public code, so the PSU's page opens on a sandbox bank only by a link its TPP obtained with a
 * signed request (docs/design.md §2b).
 */
export const psuPageLinkRoutes: FastifyPluginAsyncTypebox<{ psuPageLinks: PsuPageLinks }> = async (app, { psuPageLinks }) => {
  app.post(
    '/psu-page-links',
    {
      schema: {
        operationId: 'createSandboxPsuPageLink',
        tags: ['Sandbox mock data'],
        summary: "A link to the PSU's own page of consents and payments on your sandbox bank",
        headers: SignedRequestHeaders,
        body: NoBody,
        response: { 201: PsuPageLink, ...signedErrorResponses() },
      },
    },
    async (request, reply) => reply.code(201).send(await psuPageLinks.issuePageLink(callerOf(request))),
  );
};
