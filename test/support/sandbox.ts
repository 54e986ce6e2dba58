import { makeNorwegianBban } from '../../src/domain/bban.js';
import { ibanFromNorwegianBban } from '../../src/domain/iban.js';
import { addDays, todayIn } from '../../src/domain/iso-date.js';
import { makeNorwegianIdentityNumber } from '../../src/domain/norwegian-identity-number.js';
import type { TppClient } from '../../src/client/tpp-client.js';

/** Helpers for tests of the sandbox bank's mock-data API. */

let nextPerson = 100;
let nextAccount = 1;

/** A fresh valid national identity number (born 1 January 1990), never one of the seeded four. */
export function identityNumber(): string {
  for (;;) {
    const number = makeNorwegianIdentityNumber(`010190${String(nextPerson++).padStart(3, '0')}`);
    if (number !== undefined) return number;
  }
}

/** A fresh valid BBAN outside the sandbox bank code 1234, with its IBAN. */
export function accountNumber(): { bban: string; iban: string } {
  for (;;) {
    const bban = makeNorwegianBban(`9710${String(nextAccount++).padStart(6, '0')}`);
    if (bban !== undefined) return { bban, iban: ibanFromNorwegianBban(bban) };
  }
}

/** The balances of an account view, by type. */
export function balancesOf(view: { balances: { balanceType: string; balanceAmount: { amount: string } }[] }): Record<string, string> {
  return Object.fromEntries(view.balances.map((balance) => [balance.balanceType, balance.balanceAmount.amount]));
}

export async function createCustomer(client: TppClient, customerType: 'PRIVATE' | 'CORPORATE' = 'PRIVATE', name = 'Kari Test') {
  const response = await client.post<any>('/v1/sandbox/customers', { customerNumber: identityNumber(), customerType, customerName: name });
  if (response.status !== 201) throw new Error(`customer not created: ${response.text}`);
  return response.body as { customerId: string; customerNumber: string };
}

export async function createAccount(client: TppClient, customerNumber: string, extra: Record<string, unknown> = {}) {
  const response = await client.post<any>('/v1/sandbox/accounts', { customerNumber, ...extra });
  if (response.status !== 201) throw new Error(`account not created: ${response.text}`);
  return response.body as { resourceId: string; bban: string; iban: string; currency: string };
}

/** The bank day in Norway, `days` from today. */
export function osloDay(days = 0): string {
  // Counted in calendar days from today's Oslo date: adding days × 24 h to the instant would land
  // an hour off across a daylight-saving change, and on the wrong date near midnight.
  return addDays(todayIn('Europe/Oslo', new Date()), days);
}
