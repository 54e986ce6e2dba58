import { Type, type Static } from 'typebox';
import { AccountReference, Amount } from '../payments/payment.schemas.js';

/** Berlin Group confirmationOfFunds. */
export const FundsConfirmationBody = Type.Object(
  {
    account: AccountReference,
    instructedAmount: Amount,
    cardNumber: Type.Optional(Type.String({ maxLength: 35 })),
    payee: Type.Optional(Type.String({ maxLength: 70 })),
  },
  { additionalProperties: false },
);
export type FundsConfirmationBody = Static<typeof FundsConfirmationBody>;

export const FundsConfirmationResponse = Type.Object({ fundsAvailable: Type.Boolean() });
