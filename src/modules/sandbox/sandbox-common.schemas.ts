import { Type } from 'typebox';
import { ISSUED_UUID } from '../../http/issued-uuids.js';
import { PATTERN_TEXT } from '../../http/schemas/common.schemas.js';

/**
 * Shapes shared by the mock-data schemas. Inputs are strict (`additionalProperties: false`) so a
 * misspelt field is a 400 naming it rather than silently ignored; the rules the schema cannot
 * state (check digits, currency decimals, dates in the past) are checked by the services.
 */

export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' });

/** Berlin Group `amount`: the amount is a string (docs/design.md §2); a JSON number is refused. */
export const AmountInput = Type.Object(
  {
    currency: CurrencyCode,
    amount: Type.String({ maxLength: 32, description: 'e.g. "1056.30"; at most the currency\'s decimals' }),
  },
  { additionalProperties: false },
);

export const Amount = Type.Object({ currency: Type.String(), amount: Type.String() });

/** A Norwegian account by BBAN and/or IBAN; when both are given they must agree. */
export const AccountReferenceInput = Type.Object(
  {
    iban: Type.Optional(Type.String({ maxLength: 34 })),
    bban: Type.Optional(Type.String({ maxLength: 34 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AccountReference = Type.Object({ iban: Type.Optional(Type.String()), bban: Type.Optional(Type.String()) });

/** Berlin Group `balance`. */
export const Balance = Type.Object({
  balanceAmount: Amount,
  balanceType: Type.Union([Type.Literal('closingBooked'), Type.Literal('expected'), Type.Literal('interimAvailable')]),
  creditLimitIncluded: Type.Optional(Type.Boolean()),
});

export const CalendarDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

/** A name on an account or card (70 characters: the `longer-names` fix is the default now), not blank. */
export const DisplayName = Type.String({ minLength: 1, maxLength: 70, pattern: '\\S', [PATTERN_TEXT]: 'must not be blank' });

/** The id of a mock resource in a path: the sandbox issues them as lower-case UUIDs, read in any case (http/issued-uuids.ts). */
export const Id = Type.String({ minLength: 1, maxLength: 100, [ISSUED_UUID]: true });
