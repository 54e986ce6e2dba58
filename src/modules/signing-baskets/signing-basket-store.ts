import { signingBasketRepository } from './signing-basket.repository.js';

/**
 * The signing basket storage other modules may read, in their own transactions: a sandbox
 * customer's deletion asks, inside its transaction, which baskets the customer still has open.
 * Not the signing basket service, which answers TPP requests and is built with the payment and
 * authorisation services the sandbox has no use for.
 */
export type SigningBasketStore = Pick<typeof signingBasketRepository, 'listUndeletedOfPsu'>;

export const signingBasketStore: SigningBasketStore = {
  listUndeletedOfPsu: (db, tppId, psuId) => signingBasketRepository.listUndeletedOfPsu(db, tppId, psuId),
};
