import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import { issuedUuid } from '../../http/issued-uuids.js';
import { requestHeadersOf, tppOf } from '../../http/request-context.js';
import { signedErrorResponses } from '../../http/schemas/common.schemas.js';
import type { AccountRead, ReadAnswer } from './account-read.js';
import type { AccountReadsService } from './account-reads.service.js';
import type { TransactionReadsService } from './transaction-reads.service.js';
import {
  AccountBalancesResponse,
  AccountIdParams,
  AccountListResponse,
  AccountReadHeaders,
  AccountResponse,
  CardAccountBalancesResponse,
  CardAccountListResponse,
  CardAccountResponse,
  CardTransactionListQuerystring,
  CardTransactionListResponse,
  TransactionDetailsResponse,
  TransactionListQuerystring,
  TransactionListResponse,
  TransactionParams,
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
  return {
    tpp: tppOf(request),
    // The consent's id as the server issued it, however the TPP cased it (http/issued-uuids.ts).
    consentId: issuedUuid(consentId),
    acceptFixes: requestHeadersOf(request).acceptFixes,
    requestId: request.ctx.requestId ?? '',
    psuPresent: psuPresent(request),
  };
}

/** The PSU takes part in this read when the request carries its IP address (docs/design.md §2b); a malformed one is 400. */
function psuPresent(request: FastifyRequest): boolean {
  const address = request.headers['psu-ip-address'];
  if (address === undefined) return false;
  if (typeof address !== 'string' || isIP(address.trim()) === 0) {
    throw new AppError('FORMAT_ERROR', { path: 'PSU-IP-Address', detail: localized('not an IP address', 'ikke en IP-adresse') });
  }
  return true;
}

/** Sends a read's body with its headers (the rate-limit fields of a read without the PSU). */
function answer(reply: FastifyReply, read: ReadAnswer): never {
  return reply.headers(read.headers).send(read.body) as never;
}

/** `GET /v1/accounts…` and `GET /v1/card-accounts…` under a consent; PSP_AI only. */
/*
 * The service answers the Berlin Group shapes of account-views.ts; the response schemas here
 * serialise them (hence the `as never`: one view function serves both account types).
 */
export const accountRoutes: FastifyPluginAsyncTypebox<{ reads: AccountReadsService; transactions: TransactionReadsService }> = async (
  app,
  { reads, transactions },
) => {
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
    async (request, reply) => answer(reply, await reads.list('account', readOf(request), request.query.withBalance ?? false)),
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
    async (request, reply) =>
      answer(reply, await reads.details('account', readOf(request), request.params.accountId, request.query.withBalance ?? false)),
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
    async (request, reply) => answer(reply, await reads.balances('account', readOf(request), request.params.accountId)),
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
    async (request, reply) => answer(reply, await reads.list('card', readOf(request), request.query.withBalance ?? false)),
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
    async (request, reply) =>
      answer(reply, await reads.details('card', readOf(request), request.params.accountId, request.query.withBalance ?? false)),
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
    async (request, reply) => answer(reply, await reads.balances('card', readOf(request), request.params.accountId)),
  );

  app.get(
    '/accounts/:accountId/transactions',
    {
      config,
      schema: {
        operationId: 'getTransactionList',
        tags: ['Accounts'],
        summary: 'An account report: booked and pending transactions, or standing orders (information), paged by offset and limit',
        headers: AccountReadHeaders,
        params: AccountIdParams,
        querystring: TransactionListQuerystring,
        response: { 200: TransactionListResponse, ...errors },
      },
    },
    async (request, reply) => answer(reply, await transactions.list('account', readOf(request), request.params.accountId, request.query)),
  );

  app.get(
    '/accounts/:accountId/transactions/:transactionId',
    {
      config,
      schema: {
        operationId: 'getTransactionDetails',
        tags: ['Accounts'],
        summary: 'One transaction of an account, by the id the list gave (kept from pending to booked)',
        headers: AccountReadHeaders,
        params: TransactionParams,
        response: { 200: TransactionDetailsResponse, ...errors },
      },
    },
    async (request, reply) =>
      answer(reply, await transactions.details(readOf(request), request.params.accountId, request.params.transactionId)),
  );

  app.get(
    '/card-accounts/:accountId/transactions',
    {
      config,
      schema: {
        operationId: 'getCardAccountTransactionList',
        tags: ['Card accounts'],
        summary: 'A card account report: booked and pending card transactions, paged by offset and limit',
        headers: AccountReadHeaders,
        params: AccountIdParams,
        querystring: CardTransactionListQuerystring,
        response: { 200: CardTransactionListResponse, ...errors },
      },
    },
    async (request, reply) => answer(reply, await transactions.list('card', readOf(request), request.params.accountId, request.query)),
  );
};
