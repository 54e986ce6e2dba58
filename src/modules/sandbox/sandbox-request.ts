import type { FastifyRequest } from 'fastify';
import { tppOf } from '../../http/request-context.js';
import type { SandboxCaller } from './sandbox-bank.model.js';

/** The caller of a mock-data route: the verified TPP (whose sandbox is meant) and its X-Request-ID. */
export function callerOf(request: FastifyRequest): SandboxCaller {
  return { tppId: tppOf(request).id, requestId: request.ctx.requestId };
}
