import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { requestHeadersOf, tppOf } from '../../http/request-context.js';
import { signedErrorResponses } from '../../http/schemas/common.schemas.js';
import type { AccountRead, AccountReadsService } from './account-reads.service.js';
import {
  AccountBalancesResponse,
  AccountIdParams,
  AccountListResponse,
  AccountReadHeaders,
  AccountResponse,
  CardAccountBalancesResponse,
  CardAccountListResponse,
  CardAccountResponse,
  WithBalanceQuery,
} from './account.schemas.js';

/** A Consent-ID as it can name a consent: printable ASCII, at most 100 characters. */
const CONSENT_ID = /^[\x21-\x7E]{1,100}$/;

/** The read's who and what; a missing (or malformed) Consent-ID is 400 FORMAT_ERROR (docs/design.md §2b). */
function readOf(request: FastifyRequest): AccountRead {
  const consentId = request.headers['consent-id'];
  if (typeof consentId !== 'string' || consentId === '') {
    throw new AppError('FORMAT_ERROR', { path: 'Consent-ID', detail: localized('the header is required', 'headeren er påkrevd') });
  }
  if (!CONSENT_ID.test(consentId)) {
    throw new AppError('FORMAT_ERROR', { path: 'Consent-ID', detail: localized('not a consent id', 'ikke en samtykke-id') });
  }
  return { tpp: tppOf(request), consentId, acceptFixes: requestHeadersOf(request).acceptFixes, requestId: request.ctx.requestId ?? '' };
}

/** `GET /v1/accounts…` and `GET /v1/card-accounts…` under a consent; PSP_AI only. */
/*
 * The service answers the Berlin Group shapes of account-views.ts; the response schemas here
 * serialise them (hence the `as never`: one view function serves both account types).
 */
export const accountRoutes: FastifyPluginAsyncTypebox<{ reads: AccountReadsService }> = async (app, { reads }) => {
  const config = { requiredRole: 'PSP_AI' as const };
  const errors = signedErrorResponses();

  app.get(
    '/accounts',
    {
      config,
      schema: {
        operationId: 'getAccountList',
        tags: ['Accounts'],
        summary: 'The accounts the consent covers, with balances when asked and granted',
        headers: AccountReadHeaders,
        querystring: WithBalanceQuery,
        response: { 200: AccountListResponse, ...errors },
      },
    },
    async (request) => (await reads.list('account', readOf(request), request.query.withBalance ?? false)) as never,
  );

  app.get(
    '/accounts/:accountId',
    {
      config,
      schema: {
        operationId: 'readAccountDetails',
        tags: ['Accounts'],
        summary: 'One account the consent covers',
        headers: AccountReadHeaders,
        params: AccountIdParams,
        querystring: WithBalanceQuery,
        response: { 200: AccountResponse, ...errors },
      },
    },
    async (request) =>
      (await reads.details('account', readOf(request), request.params.accountId, request.query.withBalance ?? false)) as never,
  );

  app.get(
    '/accounts/:accountId/balances',
    {
      config,
      schema: {
        operationId: 'getBalances',
        tags: ['Accounts'],
        summary: 'closingBooked, expected and interimAvailable of an account',
        headers: AccountReadHeaders,
        params: AccountIdParams,
        response: { 200: AccountBalancesResponse, ...errors },
      },
    },
    async (request) => (await reads.balances('account', readOf(request), request.params.accountId)) as never,
  );

  app.get(
    '/card-accounts',
    {
      config,
      schema: {
        operationId: 'getCardAccountList',
        tags: ['Card accounts'],
        summary: 'The card accounts the consent covers',
        headers: AccountReadHeaders,
        querystring: WithBalanceQuery,
        response: { 200: CardAccountListResponse, ...errors },
      },
    },
    async (request) => (await reads.list('card', readOf(request), request.query.withBalance ?? false)) as never,
  );

  app.get(
    '/card-accounts/:accountId',
    {
      config,
      schema: {
        operationId: 'readCardAccount',
        tags: ['Card accounts'],
        summary: 'One card account the consent covers',
        headers: AccountReadHeaders,
        params: AccountIdParams,
        querystring: WithBalanceQuery,
        response: { 200: CardAccountResponse, ...errors },
      },
    },
    async (request) =>
      (await reads.details('card', readOf(request), request.params.accountId, request.query.withBalance ?? false)) as never,
  );

  app.get(
    '/card-accounts/:accountId/balances',
    {
      config,
      schema: {
        operationId: 'getCardAccountBalances',
        tags: ['Card accounts'],
        summary: 'closingBooked, expected and interimAvailable (credit limit included) of a card account',
        headers: AccountReadHeaders,
        params: AccountIdParams,
        response: { 200: CardAccountBalancesResponse, ...errors },
      },
    },
    async (request) => (await reads.balances('card', readOf(request), request.params.accountId)) as never,
  );
};
