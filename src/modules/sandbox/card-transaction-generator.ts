import { addDays, daysBetween } from './sandbox-dates.js';
import { seededRandom } from './sandbox-random.js';
import { amountMinor } from './transaction-generator.js';

export interface GeneratedCardTransaction {
  readonly transactionDate: string;
  readonly bookingDate: string;
  /** Negative: a purchase on the card. */
  readonly amountMinor: bigint;
  /** In a foreign currency, what the merchant charged. */
  readonly originalAmount?: { readonly minor: bigint; readonly currency: string } | undefined;
  /** With originalAmount: card-currency units per unit of the merchant's currency. */
  readonly exchangeRate?: string | undefined;
  readonly merchantCategoryCode: string;
  readonly transactionDetails: string;
}

interface Merchant {
  readonly name: string;
  /** ISO 18245 merchant category code. */
  readonly mcc: string;
  /** Range in whole units of `currency` (NOK unless given). */
  readonly min: number;
  readonly max: number;
  readonly currency?: string;
  /** NOK per unit of `currency`: the sandbox's fixed rate. */
  readonly rate?: number;
}

/** Every fourth purchase is abroad, so each seeded card shows the foreign-currency fields. */
const FOREIGN_EVERY = 4;

const MERCHANTS: readonly Merchant[] = [
  { name: 'REMA 1000 Nygårdsgaten, Bergen', mcc: '5411', min: 89, max: 1_200 },
  { name: 'Circle K Fyllingsdalen, Bergen', mcc: '5541', min: 350, max: 950 },
  { name: 'Vinmonopolet Galleriet, Bergen', mcc: '5921', min: 180, max: 900 },
  { name: 'Elkjøp Lagunen, Rådal', mcc: '5732', min: 299, max: 6_990 },
  { name: 'Peppes Pizza Bryggen, Bergen', mcc: '5812', min: 250, max: 1_100 },
  { name: 'Clas Ohlson Bergen Storsenter', mcc: '5251', min: 49, max: 1_499 },
  { name: 'Spotify AB, Stockholm', mcc: '5815', min: 129, max: 129, currency: 'SEK', rate: 0.9812 },
  { name: 'Amazon EU S.a.r.l., Luxembourg', mcc: '5942', min: 12, max: 180, currency: 'EUR', rate: 11.7245 },
  { name: 'Hotel Skt. Petri, København', mcc: '7011', min: 900, max: 2_400, currency: 'DKK', rate: 1.5721 },
  { name: 'Apple.com/bill, Cork', mcc: '5818', min: 2, max: 25, currency: 'USD', rate: 10.9534 },
];

const FOREIGN = MERCHANTS.filter((merchant) => merchant.currency !== undefined);

/**
 * `count` booked card purchases between two dates, the same for the same options; each is booked
 * zero to two days after the purchase, never after `dateTo`. Every fourth is in a foreign currency
 * (its original amount and the rate it was converted at). Oldest first.
 */
export function generateCardTransactions(options: {
  seed: string;
  count: number;
  dateFrom: string;
  dateTo: string;
  currency: string;
}): GeneratedCardTransaction[] {
  const random = seededRandom(['card', options.seed, options.count, options.dateFrom, options.dateTo, options.currency].join('|'));
  const span = daysBetween(options.dateFrom, options.dateTo);
  const purchases = Array.from({ length: options.count }, (_, index) => {
    const merchant = random.pick(index % FOREIGN_EVERY === FOREIGN_EVERY - 1 ? FOREIGN : MERCHANTS);
    const transactionDate = addDays(options.dateFrom, random.int(0, span));
    const booked = addDays(transactionDate, random.int(0, 2));
    const units = random.int(merchant.min * 100, merchant.max * 100);
    const foreign = merchant.currency !== undefined && merchant.currency !== options.currency;
    const nokOre = Math.round(units * (merchant.rate ?? 1));
    return {
      transactionDate,
      bookingDate: booked > options.dateTo ? options.dateTo : booked,
      amountMinor: -amountMinor(nokOre, options.currency),
      originalAmount: foreign && merchant.currency ? { minor: BigInt(units), currency: merchant.currency } : undefined,
      exchangeRate: foreign && merchant.rate !== undefined ? String(merchant.rate) : undefined,
      merchantCategoryCode: merchant.mcc,
      transactionDetails: merchant.name,
    };
  });
  return purchases.sort((a, b) => a.transactionDate.localeCompare(b.transactionDate));
}
