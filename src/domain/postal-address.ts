import { localized, type Localized } from './localized.js';

/**
 * A postal address as a TPP sends it (`creditorAddress`): in the names of the bank's
 * documentation (`street`, `postalCode`, `city`), in the Berlin Group's (`streetName`, `postCode`,
 * `townName`), or mixed. `buildingNumber` and `country` are the same in both.
 */
export interface PostalAddressInput {
  readonly street?: string | undefined;
  readonly streetName?: string | undefined;
  readonly buildingNumber?: string | undefined;
  readonly postalCode?: string | undefined;
  readonly postCode?: string | undefined;
  readonly city?: string | undefined;
  readonly townName?: string | undefined;
  readonly country: string;
}

/** What an address means, whichever names it was sent in. */
export interface CanonicalAddress {
  readonly street: string | undefined;
  readonly buildingNumber: string | undefined;
  readonly postCode: string | undefined;
  readonly town: string | undefined;
  readonly country: string;
}

/** The parts that have two names: the documentation's first, the Berlin Group's second. */
const TWO_NAMES = [
  { part: 'street', names: ['street', 'streetName'] },
  { part: 'postCode', names: ['postalCode', 'postCode'] },
  { part: 'town', names: ['city', 'townName'] },
] as const;

/**
 * The outcome of reading an address: its canonical form, or the part given twice with different
 * values (`field` is the Berlin Group name of that part, relative to the address).
 */
export type AddressReading =
  { readonly ok: true; readonly value: CanonicalAddress } | { readonly ok: false; readonly field: string; readonly reason: Localized };

/**
 * Reads an address in either spelling into its canonical form. A part given under both names is
 * taken once when the two values are the same, and refused when they differ: the bank never
 * guesses which one the TPP meant.
 */
export function readPostalAddress(address: PostalAddressInput): AddressReading {
  const parts: Record<(typeof TWO_NAMES)[number]['part'], string | undefined> = { street: undefined, postCode: undefined, town: undefined };
  for (const { part, names } of TWO_NAMES) {
    const [documented, berlinGroup] = names;
    const first = address[documented];
    const second = address[berlinGroup];
    if (first !== undefined && second !== undefined && first !== second) {
      return {
        ok: false,
        field: berlinGroup,
        reason: localized(
          `differs from ${documented}: both name the same part of the address; send one of them, or both with the same value`,
          `er ulik ${documented}: begge er samme del av adressen; send bare én av dem, eller begge med samme verdi`,
        ),
      };
    }
    parts[part] = first ?? second;
  }
  return {
    ok: true,
    value: {
      street: parts.street,
      buildingNumber: address.buildingNumber,
      postCode: parts.postCode,
      town: parts.town,
      country: address.country,
    },
  };
}

/**
 * The name of the town field in the TPP's own spelling, to name it when it is missing:
 * `townName` for an address in Berlin Group names only, else `city` (the documentation's name).
 */
export function townFieldOf(address: PostalAddressInput): 'city' | 'townName' {
  const berlinGroup = address.streetName !== undefined || address.postCode !== undefined;
  const documented = address.street !== undefined || address.postalCode !== undefined;
  return berlinGroup && !documented ? 'townName' : 'city';
}
