/**
 * Path parameters marked as ids the server issues (lower-case UUIDs) are read in lower case when
 * they are UUIDs in any case; anything else, and any parameter not marked, stays as sent.
 */
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { adoptIssuedUuids, issuedUuidParametersOf } from '../../src/http/issued-uuids.js';
import { ResourceId } from '../../src/http/schemas/common.schemas.js';
import { TransactionParams } from '../../src/modules/accounts/account.schemas.js';
import { AccountParams } from '../../src/modules/sandbox/account.schemas.js';

const UUID = '3F2A9C1E-0B7D-4E6F-8A5B-1C2D3E4F5A6B';

describe('issued UUIDs in path parameters', () => {
  it('names the marked parameters: resource ids and sandbox mock ids, not the bank’s transaction ids', () => {
    expect(issuedUuidParametersOf(Type.Object({ paymentProduct: Type.String(), paymentId: ResourceId }))).toEqual(['paymentId']);
    expect(issuedUuidParametersOf(TransactionParams)).toEqual(['accountId']);
    expect(issuedUuidParametersOf(AccountParams)).toEqual(['mockAccountId']);
  });

  it('writes a UUID in lower case and leaves other values and other parameters as sent', () => {
    const params: Record<string, unknown> = {
      paymentId: UUID,
      consentId: 'No-Such-Consent',
      basketId: `${UUID}-1`,
      transactionId: UUID,
    };
    adoptIssuedUuids(params, ['paymentId', 'consentId', 'basketId']);
    expect(params).toEqual({
      paymentId: UUID.toLowerCase(),
      consentId: 'No-Such-Consent',
      basketId: `${UUID}-1`,
      transactionId: UUID,
    });
  });
});
