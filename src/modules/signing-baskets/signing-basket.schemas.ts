import { Type } from 'typebox';
import { Link, ResourceId } from '../../http/schemas/common.schemas.js';
import { BASKET_STATUSES, type BasketStatus as BasketStatusValue } from './basket-status.js';
import { MAX_BASKET_PAYMENTS } from './signing-basket.service.js';

/** Wire schemas of signing baskets (Berlin Group 1.3.12 names). */

export const BasketStatus = Type.Unsafe<BasketStatusValue>(
  Type.String({
    enum: [...BASKET_STATUSES],
    description: 'The worst of its payments\u2019 statuses (RJCT < RCVD < PATC < ACTC); CANC once deleted',
  }),
);

/**
 * `POST /v1/signing-baskets` (signingBasket): payments only; this server signs no consents, so
 * `consentIds` is taken empty (none) and refused with ids (the service says why).
 */
export const SigningBasketBody = Type.Object(
  {
    paymentIds: Type.Array(ResourceId, {
      minItems: 1,
      maxItems: MAX_BASKET_PAYMENTS,
      description: `1..${MAX_BASKET_PAYMENTS} distinct ids of this TPP's single payments, each still RCVD and in no open basket`,
    }),
    consentIds: Type.Optional(
      Type.Array(ResourceId, {
        maxItems: MAX_BASKET_PAYMENTS,
        description: 'Empty or absent: a basket holds payments only (consent ids are 400 REFERENCE_MIX_INVALID)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** 201 (signingBasketResponse-201). */
export const SigningBasketCreatedResponse = Type.Object({
  transactionStatus: BasketStatus,
  basketId: Type.String(),
  _links: Type.Record(Type.String(), Link),
});

/** 200 of `GET /v1/signing-baskets/{basketId}` (signingBasketResponse-200). */
export const SigningBasketResponse = Type.Object({
  payments: Type.Array(Type.String()),
  transactionStatus: BasketStatus,
  _links: Type.Record(Type.String(), Link),
});

/** 200 of `GET …/status` (signingBasketStatusResponse-200). */
export const SigningBasketStatusResponse = Type.Object({ transactionStatus: BasketStatus });

export const BasketIdParams = Type.Object({ basketId: ResourceId });
