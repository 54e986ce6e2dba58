import { paymentRepository } from './payment.repository.js';

/**
 * The payment storage other modules may use, in their own transactions: reads, row locks and the
 * few writes that are not a status change (a signing basket taking or releasing its payments,
 * the batch run noting since when a payment lacks funds). Not the status, which only
 * transitionPayment (payment-transition.ts) changes, with its audit event; not a new payment,
 * which only the payment service creates. The PSU's own page lists a PSU's payments through it.
 *
 * Not the payment service: that service is built with the executor (an approval hands a payment
 * to the bank), so the executor and the batch run cannot be built with it; and the signing basket
 * and sandbox modules lock and read payments inside transactions of their own.
 */
export type PaymentStore = Pick<
  typeof paymentRepository,
  | 'findById'
  | 'findManyById'
  | 'findManyByIdOfAnyTpp'
  | 'findStatesById'
  | 'lockRows'
  | 'listExecutable'
  | 'takeForExecution'
  | 'takeManyForExecution'
  | 'setAwaitingFundsSince'
  | 'setAwaitingFundsSinceOf'
  | 'claimForBasket'
  | 'releaseFromBasket'
  | 'listLiveOf'
  | 'listForPsu'
  | 'listOnDebtorAccount'
>;

export const paymentStore: PaymentStore = {
  findById: (db, tppId, id) => paymentRepository.findById(db, tppId, id),
  findManyById: (db, tppId, ids) => paymentRepository.findManyById(db, tppId, ids),
  findManyByIdOfAnyTpp: (db, ids) => paymentRepository.findManyByIdOfAnyTpp(db, ids),
  findStatesById: (db, tppId, ids) => paymentRepository.findStatesById(db, tppId, ids),
  lockRows: (trx, ids) => paymentRepository.lockRows(trx, ids),
  listExecutable: (db, tppId) => paymentRepository.listExecutable(db, tppId),
  takeForExecution: (trx, id) => paymentRepository.takeForExecution(trx, id),
  takeManyForExecution: (trx, ids) => paymentRepository.takeManyForExecution(trx, ids),
  setAwaitingFundsSince: (trx, id, date) => paymentRepository.setAwaitingFundsSince(trx, id, date),
  setAwaitingFundsSinceOf: (trx, ids, date) => paymentRepository.setAwaitingFundsSinceOf(trx, ids, date),
  claimForBasket: (trx, tppId, ids, basketId) => paymentRepository.claimForBasket(trx, tppId, ids, basketId),
  releaseFromBasket: (trx, basketId) => paymentRepository.releaseFromBasket(trx, basketId),
  listLiveOf: (db, tppId, party) => paymentRepository.listLiveOf(db, tppId, party),
  listForPsu: (db, tppId, party, limit) => paymentRepository.listForPsu(db, tppId, party, limit),
  listOnDebtorAccount: (db, accountId, statuses) => paymentRepository.listOnDebtorAccount(db, accountId, statuses),
};
