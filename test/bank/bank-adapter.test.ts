/**
 * The check the server makes of what a bank's `createBankAdapter` gives, before it listens: every
 * operation of the core-banking port, the PSU authenticator's shape with its operations, and for
 * a login by redirect the IdP's origin (the SCA pages' CSP lets forms lead there and nowhere else).
 */
import { describe, expect, it } from 'vitest';
import { bankAdapterProblems, isOrigin } from '../../src/bank/bank-adapter.js';
import { createFakeIdp } from '../support/fake-idp.js';
import { createBankAdapter } from '../support/in-memory-bank-adapter.js';
import { IN_MEMORY_BANK_ENV } from '../support/test-server.js';

const quiet = { info() {}, warn() {}, error() {} };

describe('bankAdapterProblems', () => {
  it('finds nothing wrong with a complete adapter, in either authenticator shape', async () => {
    const adapter = await createBankAdapter({ publicUrl: 'http://127.0.0.1:8080', env: IN_MEMORY_BANK_ENV, log: quiet });
    expect(bankAdapterProblems(adapter)).toEqual([]);
    expect(bankAdapterProblems({ ...adapter, psuAuthenticator: createFakeIdp().authenticator })).toEqual([]);
  });

  it('names what a login by redirect lacks: its operations and its IdP origin', async () => {
    const adapter = await createBankAdapter({ publicUrl: 'http://127.0.0.1:8080', env: IN_MEMORY_BANK_ENV, log: quiet });
    const partial: Record<string, unknown> = { ...createFakeIdp().authenticator };
    delete partial['identityProviderOrigin'];
    delete partial['verifyAssertion'];
    expect(bankAdapterProblems({ ...adapter, psuAuthenticator: partial })).toEqual([
      'psuAuthenticator lacks verifyAssertion',
      'psuAuthenticator.identityProviderOrigin must be an origin such as https://login.bank.example',
    ]);
  });

  it('refuses what is not an adapter at all, and an unknown authenticator kind', () => {
    expect(bankAdapterProblems(undefined)).toEqual(['createBankAdapter must return an object with coreBanking and psuAuthenticator']);
    expect(bankAdapterProblems({ coreBanking: {}, psuAuthenticator: { kind: 'sms' } })).toEqual([
      expect.stringMatching(/^coreBanking lacks findAccount, account, /),
      'psuAuthenticator.kind must be "in-page-code" or "external-redirect"',
    ]);
  });
});

describe('isOrigin', () => {
  it.each(['https://login.bank.example', 'http://127.0.0.1:9000'])('takes %s', (value) => expect(isOrigin(value)).toBe(true));
  it.each(['https://login.bank.example/', 'https://login.bank.example/authorize', 'ftp://bank.example', 'login.bank.example', 42])(
    'refuses %s',
    (value) => expect(isOrigin(value)).toBe(false),
  );
});
