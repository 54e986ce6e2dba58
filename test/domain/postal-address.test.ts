import { describe, expect, it } from 'vitest';
import { readPostalAddress, townFieldOf, type PostalAddressInput } from '../../src/domain/postal-address.js';

const TRONDHEIM = { street: 'Street', buildingNumber: '56', postCode: '7014', town: 'Trondheim', country: 'NO' };

describe('readPostalAddress', () => {
  it.each<[string, PostalAddressInput]>([
    ["the bank documentation's names", { street: 'Street', buildingNumber: '56', postalCode: '7014', city: 'Trondheim', country: 'NO' }],
    ['the Berlin Group names', { streetName: 'Street', buildingNumber: '56', postCode: '7014', townName: 'Trondheim', country: 'NO' }],
    [
      'the periodic sample (street, postalCode, townName)',
      { street: 'Street', buildingNumber: '56', postalCode: '7014', townName: 'Trondheim', country: 'NO' },
    ],
    [
      'every part under both names, with the same values',
      {
        street: 'Street',
        streetName: 'Street',
        buildingNumber: '56',
        postalCode: '7014',
        postCode: '7014',
        city: 'Trondheim',
        townName: 'Trondheim',
        country: 'NO',
      },
    ],
  ])('reads %s into the same canonical address', (_, address) => {
    expect(readPostalAddress(address)).toEqual({ ok: true, value: TRONDHEIM });
  });

  it('leaves parts not given undefined', () => {
    expect(readPostalAddress({ country: 'SE' })).toEqual({
      ok: true,
      value: { street: undefined, buildingNumber: undefined, postCode: undefined, town: undefined, country: 'SE' },
    });
  });

  it.each<[PostalAddressInput, string, string]>([
    [{ street: 'Storgata', streetName: 'Kirkegata', country: 'NO' }, 'streetName', 'street'],
    [{ postalCode: '0155', postCode: '0150', country: 'NO' }, 'postCode', 'postalCode'],
    [{ city: 'Oslo', townName: 'Bergen', country: 'NO' }, 'townName', 'city'],
    // Strict in what it means: a different case or a trailing space is a different value.
    [{ city: 'Oslo', townName: 'OSLO', country: 'NO' }, 'townName', 'city'],
    [{ postalCode: '0155', postCode: '0155 ', country: 'NO' }, 'postCode', 'postalCode'],
  ])('refuses %j at %s, the part given twice with different values', (address, field, other) => {
    const reading = readPostalAddress(address);
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.field).toBe(field);
    expect(reading.reason.en).toContain(`differs from ${other}`);
    expect(reading.reason.nb).toContain(`er ulik ${other}`);
  });
});

describe('townFieldOf', () => {
  it.each<[PostalAddressInput, 'city' | 'townName']>([
    [{ country: 'SE' }, 'city'],
    [{ street: 'Kungsgatan', country: 'SE' }, 'city'],
    [{ streetName: 'Kungsgatan', postCode: '11122', country: 'SE' }, 'townName'],
    [{ streetName: 'Kungsgatan', postalCode: '11122', country: 'SE' }, 'city'],
  ])('names the missing town of %j %s', (address, field) => {
    expect(townFieldOf(address)).toBe(field);
  });
});
