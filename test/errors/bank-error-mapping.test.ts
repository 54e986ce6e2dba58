/**
 * The core-banking port's errors are mapped once, in the error handler: an unavailable bank is
 * 503, missing data a bare 500, the bank's refusal 403 SERVICE_BLOCKED and an unknown account 404
 * RESOURCE_UNKNOWN, the last two with the bank's words.
 */
import { describe, expect, it } from 'vitest';
import { BankError } from '../../src/bank/bank-error.js';
import { ERROR_CATALOGUE } from '../../src/errors/error-catalogue.js';
import { toAppError } from '../../src/http/error-handler.js';

describe('BankError in the catalogue', () => {
  it.each([
    ['unavailable', 'BANK_UNAVAILABLE', 503, 'SERVICE_UNAVAILABLE', undefined],
    ['missing-data', 'SYSTEM_ERROR', 500, 'SYSTEM_ERROR', undefined],
    ['refused', 'BANK_REFUSED', 403, 'SERVICE_BLOCKED', 'the bank says no'],
    ['unknown-account', 'RESOURCE_UNKNOWN', 404, 'RESOURCE_UNKNOWN', undefined],
  ] as const)('%s → %s (%i %s)', (kind, code, status, tppCode, detail) => {
    const mapped = toAppError(new BankError(kind, 'the bank says no'));
    expect(mapped?.code).toBe(code);
    expect(mapped?.detail?.en).toBe(detail);
    expect(ERROR_CATALOGUE[code]).toMatchObject({ status, tppCode });
  });
});
