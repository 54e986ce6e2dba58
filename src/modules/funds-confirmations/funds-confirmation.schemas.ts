import { Type, type Static } from 'typebox';
import { localized, type Localized } from '../../domain/localized.js';
import { BERLIN_GROUP_NOT_TAKEN, type BerlinGroupNotTaken } from '../../http/schemas/common.schemas.js';
import { AccountReference, Amount } from '../payments/payment.schemas.js';

/** Why the funds check does not take an account named other than by number: the core-banking port's check takes one. */
function notOffered(what: Localized): Localized {
  return localized(
    `funds confirmation is not offered for ${what.en}; name the account by bban or iban`,
    `bekreftelse av dekning tilbys ikke for ${what.nb}; oppgi kontoen med bban eller iban`,
  );
}

/**
 * Berlin Group accountReference as confirmationOfFunds takes it: by bban or iban. The card
 * references (pan, maskedPan) and msisdn are members of it the bank does not take here (the port's
 * funds check takes an account number, and the bank cannot find a card account by its PAN).
 */
const FundsAccountReference = Type.Object(AccountReference.properties, {
  additionalProperties: false,
  [BERLIN_GROUP_NOT_TAKEN]: {
    pan: notOffered(localized('card accounts', 'kortkontoer')),
    maskedPan: notOffered(localized('card accounts', 'kortkontoer')),
    msisdn: notOffered(localized('accounts by phone number', 'kontoer etter telefonnummer')),
    other: localized('name the account by bban or iban', 'oppgi kontoen med bban eller iban'),
  } satisfies BerlinGroupNotTaken,
});

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
