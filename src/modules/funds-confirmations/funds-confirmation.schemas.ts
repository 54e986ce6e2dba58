import { Type, type Static } from 'typebox';
import { localized } from '../../domain/localized.js';
import { BERLIN_GROUP_NOT_TAKEN } from '../../http/schemas/common.schemas.js';
import { AccountReference, Amount } from '../payments/payment.schemas.js';

/**
 * Berlin Group accountReference as confirmationOfFunds takes it: the card references (pan,
 * maskedPan) and msisdn are members of it, so they are names of this body; the service says the
 * bank does not take them here.
 */
const FundsAccountReference = Type.Object(
  {
    ...AccountReference.properties,
    pan: Type.Optional(Type.String({ maxLength: 35, description: 'Not taken here (400 PARAMETER_NOT_SUPPORTED): use bban or iban' })),
    maskedPan: Type.Optional(Type.String({ maxLength: 35, description: 'Not taken here (400 PARAMETER_NOT_SUPPORTED): use bban or iban' })),
    msisdn: Type.Optional(Type.String({ maxLength: 35, description: 'Not taken here (400 PARAMETER_NOT_SUPPORTED): use bban or iban' })),
  },
  {
    additionalProperties: false,
    [BERLIN_GROUP_NOT_TAKEN]: {
      other: localized('name the account by bban or iban', 'oppgi kontoen med bban eller iban'),
    },
  },
);

/** Berlin Group confirmationOfFunds. */
export const FundsConfirmationBody = Type.Object(
  {
    account: FundsAccountReference,
    instructedAmount: Amount,
    cardNumber: Type.Optional(Type.String({ maxLength: 35 })),
    payee: Type.Optional(Type.String({ maxLength: 70 })),
  },
  { additionalProperties: false },
);
export type FundsConfirmationBody = Static<typeof FundsConfirmationBody>;

export const FundsConfirmationResponse = Type.Object({ fundsAvailable: Type.Boolean() });
