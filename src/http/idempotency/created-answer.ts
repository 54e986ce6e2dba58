import type { CreatedResource } from '../../domain/created-resource.js';
import type { StoredResponse } from './idempotency.repository.js';

/**
 * How a POST route answers the resource its request created (route config `answer`). The answer is
 * serialised once, in the transaction that creates the resource, and stored there: the request's
 * first answer and every replay are the very same bytes.
 */
export type CreatedAnswer = (created: CreatedResource) => StoredResponse;

/**
 * The 201 of a resource the PSU must authorise by redirect (a payment, a signing basket):
 * `Location`, `ASPSP-SCA-Approach: REDIRECT`, the resource's own headers (ASPSP-Notification-*) and
 * the JSON body.
 */
export const createdForRedirect: CreatedAnswer = (created) => ({
  status: 201,
  headers: {
    location: created.href,
    'aspsp-sca-approach': 'REDIRECT',
    ...created.headers,
    'content-type': 'application/json; charset=utf-8',
  },
  body: JSON.stringify(created.view),
});
