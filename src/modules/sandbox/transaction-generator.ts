import { randomUUID } from 'node:crypto';
import { makeNorwegianBban } from '../../domain/bban.js';
import { minorUnits } from '../../domain/currencies.js';
import { makeKid } from '../../domain/kid.js';
import { addDays, daysBetween, monthsBetween } from './sandbox-dates.js';
import type { SandboxTransaction } from './sandbox-bank.model.js';
import { seededRandom, type Random } from './sandbox-random.js';

/** Which kind of account the transactions should look like they belong to. */
export const TRANSACTION_PROFILES = ['private', 'corporate', 'savings', 'tax'] as const;
export type TransactionProfile = (typeof TRANSACTION_PROFILES)[number];

export interface GeneratedTransaction {
  readonly bookingDate: string;
  readonly valueDate: string;
  /** Signed minor units of the account's currency: negative is a debit. */
  readonly amountMinor: bigint;
  readonly counterpartyName: string;
  readonly counterpartyBban: string;
  readonly remittanceUnstructured?: string | undefined;
  /** A KID that passes MOD10, for bills and invoices. */
  readonly kid?: string | undefined;
}

interface Template {
  readonly counterparty: string;
  /** Unstructured remittance; absent when the payment carries a KID instead. */
  readonly text?: string;
  /** Range in NOK (whole kroner); other currencies get a tenth. */
  readonly min: number;
  readonly max: number;
  readonly credit?: boolean;
  /** Recurring templates fall on this day of every month. */
  readonly day?: number;
  readonly weight?: number;
}

interface Profile {
  readonly recurring: readonly Template[];
  readonly everyday: readonly Template[];
  /** The largest share of the count that recurring payments may take. */
  readonly recurringShare: number;
}

/** Norwegian everyday banking: salary (Lønn), rent (Husleie), groceries, eFaktura bills with KID, Vipps. */
const PROFILES: Record<TransactionProfile, Profile> = {
  private: {
    recurringShare: 0.25,
    recurring: [
      { counterparty: 'Fjordbris Regnskap AS', text: 'Lønn', min: 33_000, max: 36_000, credit: true, day: 20 },
      { counterparty: 'Bergen Boligutleie AS', text: 'Husleie', min: 11_500, max: 11_500, day: 1 },
      { counterparty: 'Egen konto', text: 'Fast overføring til sparekonto', min: 2_500, max: 2_500, day: 21 },
      // eFaktura: paid with the KID the biller gave.
      { counterparty: 'Gjensidige Forsikring ASA', min: 1_240, max: 1_240, day: 12 },
    ],
    everyday: [
      { counterparty: 'REMA 1000 Nygårdsgaten', text: 'Varekjøp REMA 1000', min: 89, max: 1_450, weight: 6 },
      { counterparty: 'KIWI Danmarksplass', text: 'Varekjøp KIWI', min: 64, max: 1_100, weight: 5 },
      { counterparty: 'Coop Extra Fyllingsdalen', text: 'Varekjøp Coop Extra', min: 120, max: 1_800, weight: 4 },
      { counterparty: 'MENY Bryggen', text: 'Varekjøp MENY', min: 150, max: 1_600, weight: 2 },
      { counterparty: 'Fjordkraft AS', min: 450, max: 2_400, weight: 1 },
      { counterparty: 'Telenor Norge AS', min: 299, max: 699, weight: 1 },
      { counterparty: 'Vipps MobilePay AS', text: 'Vipps overføring', min: 50, max: 800, weight: 2 },
      { counterparty: 'Vipps MobilePay AS', text: 'Vipps fra venn', min: 50, max: 600, credit: true, weight: 1 },
      { counterparty: 'Skyss', text: 'Periodebillett Skyss', min: 44, max: 920, weight: 1 },
      { counterparty: 'Vinmonopolet Galleriet', text: 'Varekjøp Vinmonopolet', min: 150, max: 900, weight: 1 },
      { counterparty: 'Circle K Fyllingsdalen', text: 'Drivstoff Circle K', min: 300, max: 900, weight: 1 },
    ],
  },
  corporate: {
    recurringShare: 0.2,
    recurring: [
      { counterparty: 'Lønn ansatte', text: 'Lønnsutbetaling', min: 180_000, max: 240_000, day: 20 },
      { counterparty: 'Skatteetaten', min: 60_000, max: 85_000, day: 15 },
    ],
    everyday: [
      { counterparty: 'Havbris Eiendom AS', text: 'Innbetaling faktura', min: 8_000, max: 95_000, credit: true, weight: 4 },
      { counterparty: 'Vestland Handel AS', text: 'Innbetaling faktura', min: 3_000, max: 45_000, credit: true, weight: 3 },
      { counterparty: 'Bergen Verktøy AS', min: 1_200, max: 28_000, weight: 3 },
      { counterparty: 'Telenor Norge AS', min: 900, max: 4_500, weight: 1 },
      { counterparty: 'Circle K Bedrift', text: 'Drivstoff', min: 600, max: 2_500, weight: 2 },
      { counterparty: 'DNB Finans', min: 4_000, max: 9_000, weight: 1 },
    ],
  },
  savings: {
    recurringShare: 1,
    recurring: [{ counterparty: 'Egen konto', text: 'Fast overføring fra brukskonto', min: 2_500, max: 2_500, credit: true, day: 21 }],
    everyday: [
      { counterparty: 'Egen konto', text: 'Overføring til brukskonto', min: 1_000, max: 8_000, weight: 2 },
      { counterparty: 'Nordic Sandbox Bank', text: 'Renter', min: 20, max: 300, credit: true, weight: 1 },
    ],
  },
  tax: {
    recurringShare: 0.75,
    recurring: [{ counterparty: 'Egen konto', text: 'Skattetrekk', min: 32_000, max: 38_000, credit: true, day: 20 }],
    everyday: [{ counterparty: 'Skatteetaten', min: 60_000, max: 70_000, weight: 1 }],
  },
};

export interface GenerateOptions {
  readonly seed: string;
  readonly count: number;
  readonly dateFrom: string;
  readonly dateTo: string;
  readonly currency: string;
  readonly profile: TransactionProfile;
}

/**
 * `count` booked transactions between two dates, the same every time for the same options: the
 * monthly ones (salary, rent, tax) on their day, up to the profile's share of the count, and the
 * rest everyday spending on random days. Oldest first.
 */
export function generateTransactions(options: GenerateOptions): GeneratedTransaction[] {
  const random = seededRandom([options.seed, options.profile, options.count, options.dateFrom, options.dateTo, options.currency].join('|'));
  const profile = PROFILES[options.profile];
  const monthly = monthsBetween(options.dateFrom, options.dateTo)
    .flatMap((month) => profile.recurring.map((template) => ({ template, date: dayOfMonth(month, template.day ?? 1) })))
    .filter(({ date }) => date >= options.dateFrom && date <= options.dateTo)
    .slice(0, Math.floor(options.count * profile.recurringShare));
  const span = daysBetween(options.dateFrom, options.dateTo);
  const everyday = Array.from({ length: options.count - monthly.length }, () => ({
    template: pickWeighted(random, profile.everyday),
    date: addDays(options.dateFrom, random.int(0, span)),
  }));
  return [...monthly, ...everyday]
    .sort((a, b) => a.date.localeCompare(b.date))
    .map(({ template, date }) => transaction(random, template, date, options.currency));
}

/** Generated transactions as booked mock transactions of an account, each with its own opaque id. */
export function asSandboxTransactions(
  accountId: string,
  currency: string,
  generated: readonly GeneratedTransaction[],
): SandboxTransaction[] {
  return generated.map((item) => ({
    id: randomUUID(),
    accountId,
    status: 'booked',
    bookingDate: item.bookingDate,
    valueDate: item.valueDate,
    amount: { minor: item.amountMinor, currency },
    counterpartyName: item.counterpartyName,
    counterpartyAccount: { bban: item.counterpartyBban },
    remittanceUnstructured: item.remittanceUnstructured,
    remittanceReference: item.kid,
  }));
}

function transaction(random: Random, template: Template, date: string, currency: string): GeneratedTransaction {
  const magnitude = amountMinor(random.int(template.min * 100, template.max * 100), currency);
  return {
    bookingDate: date,
    valueDate: date,
    amountMinor: template.credit ? magnitude : -magnitude,
    counterpartyName: template.counterparty,
    counterpartyBban: counterpartyBban(template.counterparty),
    ...(template.text !== undefined ? { remittanceUnstructured: template.text } : { kid: makeKid(random.digits(random.int(6, 14))) }),
  };
}

/** Øre of a NOK-sized amount, in the minor units of `currency`; other currencies get a tenth. */
export function amountMinor(ore: number, currency: string): bigint {
  const digits = minorUnits(currency) ?? 2;
  const scaled = currency === 'NOK' ? BigInt(ore) : BigInt(Math.max(1, Math.round(ore / 10)));
  const converted = digits >= 2 ? scaled * 10n ** BigInt(digits - 2) : scaled / 10n ** BigInt(2 - digits);
  return converted === 0n ? 1n : converted;
}

function dayOfMonth(month: string, day: number): string {
  const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
  return `${month.slice(0, 8)}${String(Math.min(day, last)).padStart(2, '0')}`;
}

function pickWeighted(random: Random, templates: readonly Template[]): Template {
  const total = templates.reduce((sum, template) => sum + (template.weight ?? 1), 0);
  let ticket = random.next() * total;
  for (const template of templates) {
    ticket -= template.weight ?? 1;
    if (ticket < 0) return template;
  }
  return random.pick(templates);
}

const counterpartyAccounts = new Map<string, string>();

/** A valid, stable BBAN for a named counterparty (the same name always pays from the same account). */
export function counterpartyBban(name: string): string {
  const known = counterpartyAccounts.get(name);
  if (known) return known;
  const random = seededRandom(`counterparty:${name}`);
  let bban: string | undefined;
  while (bban === undefined) bban = makeNorwegianBban(`${random.int(1000, 9999)}${random.digits(6)}`);
  counterpartyAccounts.set(name, bban);
  return bban;
}
