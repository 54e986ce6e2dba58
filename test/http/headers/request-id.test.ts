import { describe, expect, it } from 'vitest';
import { checkRequestId } from '../../../src/http/headers/request-id.js';

describe('checkRequestId', () => {
  it.each([
    '99391c7e-ad88-49ec-a2ad-99ddcb1f7721', // v4
    '99391C7E-AD88-49EC-A2AD-99DDCB1F7721', // upper case, returned as sent
    '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', // v7
    '00000000-0000-0000-0000-000000000000', // nil UUID: any version is accepted
  ])('accepts %s', (value) => {
    expect(checkRequestId(value)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'got 0', 'har 0'],
    ['99391c7e-ad88-49ec-a2ad-99ddcb1f772', 'got 35', 'har 35'],
    ['{99391c7e-ad88-49ec-a2ad-99ddcb1f7721}', 'got 38', 'har 38'],
    ['99391c7ead8849eca2ad99ddcb1f7721', 'got 32', 'har 32'],
    ['99391c7g-ad88-49ec-a2ad-99ddcb1f7721', 'character 8 is not a hexadecimal digit', 'tegn nr. 8 er ikke et heksadesimalt siffer'],
    ['99391c7e_ad88-49ec-a2ad-99ddcb1f7721', 'character 9 is not a hyphen', 'tegn nr. 9 er ikke en bindestrek'],
    ['99391c7e-ad88-49ec-a2ad-99ddcb1f772 ', 'character 36 is not a hexadecimal digit', 'tegn nr. 36'],
  ])('refuses %j: %s', (value, en, nb) => {
    const result = checkRequestId(value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain('must be a UUID');
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});
