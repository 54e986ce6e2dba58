import { describe, expect, it } from 'vitest';
import { checkBooleanHeader } from '../../../src/http/headers/boolean-header.js';

describe('checkBooleanHeader', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['false', false],
    ['FALSE', false],
    ['fAlSe', false],
  ])('reads %s as %s', (value, expected) => {
    expect(checkBooleanHeader(value)).toEqual({ ok: true, value: expected });
  });

  it.each(['', 'yes', 'no', '1', '0', 'true ', ' false', 'truee', '"true"'])('refuses %j', (value) => {
    const result = checkBooleanHeader(value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toBe('must be "true" or "false"');
    expect(result.reason.nb).toBe('må være "true" eller "false"');
  });
});
