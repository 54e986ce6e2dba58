/**
 * The payment rules the wire schema cannot express (docs/design.md §2), as pure functions. Each rule has
 * a refused row (the internal error code and the field's path) next to the row it accepts:
 * - accounts: BBAN MOD11, IBAN mod-97, bban and iban naming different accounts, neither given, a
 *   foreign IBAN where a Norwegian account is needed, SCT's required creditor IBAN;
 * - currencies (NOK-only domestic, EUR-only SCT, creditorAccount.currency) and amounts;
 * - creditor address country, either spelling with a part given twice only with the same value,
 *   the town NCBCT and CBCT need, BIC, the cross-border creditorAgent needed only without an IBAN;
 * - KID (MOD10 / MOD11, blank SCOR, other reference types) and remittance exclusivity; the
 *   deprecated remittanceInformationStructured, taken but stored as remittanceInformationStructuredArray;
 * - currency-register reporting: required for NCBCT from NOK 100 000.00 (other currencies by the
 *   rate table, unknown rates count as required), optional but validated for SCT and CBCT;
 * - requested execution dates (past, today, the last allowed day, beyond, not a date; INDCTS only today);
 * - bulk items with their index in the path, and the bulk total;
 * - periodic schedules (spelling `preceeding`, endDate, monthsOfExecution, dayOfExecution, a
 *   schedule with no execution date, startDate);
 * - the logical-duplicate fingerprint.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOK_RATES } from '../../src/domain/regulatory-reporting.js';
import { AppError } from '../../src/errors/app-error.js';
import type { ErrorCode } from '../../src/errors/error-catalogue.js';
import type { PaymentProduct } from '../../src/modules/payments/payment-products.js';
import {
  checkBulkPayment,
  checkPeriodicPayment,
  checkSinglePayment,
  scheduleOf,
  type RuleContext,
} from '../../src/modules/payments/payment-rules.js';
import type { BulkNdctBody, PeriodicNdctBody, SinglePaymentBody } from '../../src/modules/payments/payment.schemas.js';

const CONTEXT: RuleContext = { today: '2026-11-20', maxDaysAhead: 365, nokRates: DEFAULT_NOK_RATES };

type Body = Record<string, unknown>;

/** What a rule function did with a body: accepted it, or refused it with a code at a path. */
type Outcome = 'accepted' | { code: ErrorCode; path: string | undefined };

const ACCEPTED = 'accepted' as const;

function refused(code: ErrorCode, path: string): Outcome {
  return { code, path };
}

function format(path: string): Outcome {
  return refused('FORMAT_ERROR', path);
}

function outcome(run: () => unknown): Outcome {
  try {
    run();
    return ACCEPTED;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, path: error.path };
    throw error;
  }
}

/** A deep copy of `base` with the top-level fields of `patch` set; a field set to undefined is removed. */
function withFields(base: Body, patch: Body): Body {
  const body = structuredClone(base);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

const PRODUCTS = {
  NDCT: 'norwegian-domestic-credit-transfers',
  INDCTS: 'instant-norwegian-domestic-credit-transfers-straks',
  NCBCT: 'norwegian-cross-border-credit-transfers',
  CBCT: 'cross-border-credit-transfers',
  SCT: 'sepa-credit-transfers',
} as const satisfies Record<string, PaymentProduct>;
type Short = keyof typeof PRODUCTS;

const DEBTOR_BBAN = '12345678903';
const DEBTOR_IBAN = 'NO7112345678903';
const CREDITOR_BBAN = '86011117947';
const CREDITOR_IBAN = 'NO9386011117947';
const SCT_CREDITOR_IBAN = 'DE89370400440532013000';
const SE_IBAN = 'SE4550000000058398257466';

const DOMESTIC: Body = {
  debtorAccount: { bban: DEBTOR_BBAN },
  instructedAmount: { currency: 'NOK', amount: '100.00' },
  creditorAccount: { bban: CREDITOR_BBAN },
  creditorName: 'Kari Nordmann',
};

const SEPA: Body = {
  debtorAccount: { bban: DEBTOR_BBAN },
  instructedAmount: { currency: 'EUR', amount: '100.00' },
  creditorAccount: { iban: SCT_CREDITOR_IBAN },
  creditorName: 'Max Mustermann',
};

const CROSS_BORDER: Body = {
  debtorAccount: { bban: DEBTOR_BBAN },
  instructedAmount: { currency: 'SEK', amount: '1000.00' },
  creditorAccount: { iban: SE_IBAN },
  creditorName: 'Sven Svensson',
  creditorAgent: 'ESSESESS',
  creditorAddress: { city: 'Stockholm', country: 'SE' },
};

const BASES: Readonly<Record<Short, Body>> = { NDCT: DOMESTIC, INDCTS: DOMESTIC, NCBCT: CROSS_BORDER, CBCT: CROSS_BORDER, SCT: SEPA };

function single(product: Short, patch: Body = {}) {
  return checkSinglePayment(PRODUCTS[product], withFields(BASES[product], patch) as SinglePaymentBody, CONTEXT);
}

interface SingleRow {
  readonly product: Short;
  readonly name: string;
  readonly patch: Body;
  readonly expected: Outcome;
}

function row(product: Short, name: string, patch: Body, expected: Outcome): SingleRow {
  return { product, name, patch, expected };
}

function label(expected: Outcome): string {
  return expected === ACCEPTED ? 'accepted' : `${expected.code} at ${expected.path}`;
}

function singleTable(rows: readonly SingleRow[]) {
  it.each(rows.map((entry) => ({ ...entry, outcome: label(entry.expected) })))(
    '$product, $name: $outcome',
    ({ product, patch, expected }) => {
      expect(outcome(() => single(product, patch))).toEqual(expected);
    },
  );
}

const kid = (reference: string, referenceType: string | undefined = 'SCOR') => ({
  remittanceInformationStructured: referenceType === undefined ? { reference } : { reference, referenceType },
});

describe('checkSinglePayment', () => {
  describe('the valid base body of each product', () => {
    singleTable((Object.keys(PRODUCTS) as Short[]).map((product) => row(product, 'base body', {}, ACCEPTED)));
  });

  describe('accounts', () => {
    singleTable([
      row('NDCT', 'debtor bban with a wrong check digit', { debtorAccount: { bban: '12345678904' } }, format('debtorAccount.bban')),
      row('NDCT', 'debtor bban with the right check digit', { debtorAccount: { bban: DEBTOR_BBAN } }, ACCEPTED),
      row('NDCT', 'creditor bban with a wrong check digit', { creditorAccount: { bban: '86011117948' } }, format('creditorAccount.bban')),
      row('NDCT', 'creditor bban with the right check digit', { creditorAccount: { bban: CREDITOR_BBAN } }, ACCEPTED),
      row(
        'NDCT',
        'creditor iban with wrong check digits',
        { creditorAccount: { iban: 'NO9486011117947' } },
        format('creditorAccount.iban'),
      ),
      row('NDCT', 'creditor iban with the right check digits', { creditorAccount: { iban: CREDITOR_IBAN } }, ACCEPTED),
      row('NDCT', 'debtor iban with wrong check digits', { debtorAccount: { iban: 'NO7212345678903' } }, format('debtorAccount.iban')),
      row('NDCT', 'debtor iban with the right check digits', { debtorAccount: { iban: DEBTOR_IBAN } }, ACCEPTED),
      row(
        'NDCT',
        'creditor bban and iban of different accounts',
        { creditorAccount: { bban: DEBTOR_BBAN, iban: CREDITOR_IBAN } },
        format('creditorAccount.iban'),
      ),
      row(
        'NDCT',
        'creditor bban and iban of the same account',
        { creditorAccount: { bban: CREDITOR_BBAN, iban: CREDITOR_IBAN } },
        ACCEPTED,
      ),
      row(
        'NDCT',
        'debtor bban and iban of different accounts',
        { debtorAccount: { bban: DEBTOR_BBAN, iban: CREDITOR_IBAN } },
        format('debtorAccount.iban'),
      ),
      row('NDCT', 'debtor bban and iban of the same account', { debtorAccount: { bban: DEBTOR_BBAN, iban: DEBTOR_IBAN } }, ACCEPTED),
      row('NDCT', 'debtor account without bban and iban', { debtorAccount: { currency: 'NOK' } }, format('debtorAccount')),
      row('NDCT', 'creditor account without bban and iban', { creditorAccount: { currency: 'NOK' } }, format('creditorAccount')),
      row('NDCT', 'a German IBAN as debtor', { debtorAccount: { iban: SCT_CREDITOR_IBAN } }, format('debtorAccount.iban')),
      row('SCT', 'a German IBAN as debtor', { debtorAccount: { iban: SCT_CREDITOR_IBAN } }, format('debtorAccount.iban')),
      row('NCBCT', 'a Swedish IBAN as debtor', { debtorAccount: { iban: SE_IBAN } }, format('debtorAccount.iban')),
      row('CBCT', 'a Norwegian IBAN as debtor', { debtorAccount: { iban: DEBTOR_IBAN } }, ACCEPTED),
      row('NDCT', 'a German IBAN as domestic creditor', { creditorAccount: { iban: SCT_CREDITOR_IBAN } }, format('creditorAccount.iban')),
      row('SCT', 'creditor without iban', { creditorAccount: { bban: CREDITOR_BBAN } }, format('creditorAccount.iban')),
      row(
        'SCT',
        'creditor iban with wrong check digits',
        { creditorAccount: { iban: 'DE88370400440532013000' } },
        format('creditorAccount.iban'),
      ),
      row('SCT', 'a Norwegian creditor iban', { creditorAccount: { iban: CREDITOR_IBAN } }, ACCEPTED),
      row(
        'CBCT',
        'creditor iban with wrong check digits',
        { creditorAccount: { iban: 'SE4650000000058398257466' } },
        format('creditorAccount.iban'),
      ),
      row(
        'CBCT',
        'foreign creditor bban that is not letters and digits',
        { creditorAccount: { bban: '5000-0000' } },
        format('creditorAccount.bban'),
      ),
      row('CBCT', 'foreign creditor bban of letters and digits', { creditorAccount: { bban: '50000000058398257466' } }, ACCEPTED),
      row('CBCT', 'creditor account without bban and iban', { creditorAccount: { currency: 'SEK' } }, format('creditorAccount')),
    ]);
  });

  // An SCT reaches only the SEPA schemes' countries (EPC409-09); other products take an IBAN of any country.
  describe('the SEPA scheme countries of an SCT creditor', () => {
    const to = (iban: string) => ({ creditorAccount: { iban } });
    const sepa = [
      ['a German', SCT_CREDITOR_IBAN],
      ['a Swiss', 'CH9300762011623852957'],
      ['a British', 'GB29NWBK60161331926819'],
      ['a Gibraltar', 'GI75NWBK000000007099453'],
      ['an Albanian', 'AL47212110090000000235698741'],
      ['a Serbian', 'RS35260005601001611379'],
      ['a San Marino', 'SM86U0322509800000000270100'],
    ] as const;
    const outside = [
      ['a Brazilian', 'BR1800360305000010009795493C1'],
      ['a Turkish', 'TR330006100519786457841326'],
      ['a Kosovo', 'XK051212012345678906'],
      ['a Ukrainian', 'UA213223130000026007233566001'],
    ] as const;
    singleTable([
      ...sepa.map(([name, iban]) => row('SCT', `${name} creditor iban`, to(iban), ACCEPTED)),
      ...outside.map(([name, iban]) => row('SCT', `${name} creditor iban`, to(iban), format('creditorAccount.iban'))),
      ...outside.map(([name, iban]) => row('CBCT', `${name} creditor iban`, to(iban), ACCEPTED)),
      ...outside.map(([name, iban]) => row('NCBCT', `${name} creditor iban`, to(iban), ACCEPTED)),
    ]);

    it('says why, in English and Bokmål, and names the product to use', () => {
      try {
        single('SCT', to('BR1800360305000010009795493C1'));
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        const detail = (error as AppError).detail!;
        expect(detail.en).toContain('is an account in BR, outside the countries of the SEPA schemes');
        expect(detail.en).toContain('cross-border-credit-transfers');
        expect(detail.nb).toContain('er en konto i BR, utenfor landene i SEPA-ordningene');
      }
    });
  });

  describe('currencies', () => {
    const eur = { instructedAmount: { currency: 'EUR', amount: '100.00' } };
    singleTable([
      row('NDCT', 'EUR', eur, format('instructedAmount.currency')),
      row('NDCT', 'NOK', { instructedAmount: { currency: 'NOK', amount: '100.00' } }, ACCEPTED),
      row('INDCTS', 'EUR', eur, format('instructedAmount.currency')),
      row('INDCTS', 'NOK', { instructedAmount: { currency: 'NOK', amount: '100.00' } }, ACCEPTED),
      row('SCT', 'NOK', { instructedAmount: { currency: 'NOK', amount: '100.00' } }, format('instructedAmount.currency')),
      row('SCT', 'EUR', eur, ACCEPTED),
      row('CBCT', 'USD', { instructedAmount: { currency: 'USD', amount: '100.00' } }, ACCEPTED),
      row('NCBCT', 'NOK', { instructedAmount: { currency: 'NOK', amount: '100.00' } }, ACCEPTED),
      row(
        'NCBCT',
        'a code that is no currency',
        { instructedAmount: { currency: 'XYZ', amount: '100.00' } },
        format('instructedAmount.currency'),
      ),
      row(
        'NDCT',
        'creditorAccount.currency EUR',
        { creditorAccount: { bban: CREDITOR_BBAN, currency: 'EUR' } },
        format('creditorAccount.currency'),
      ),
      row('NDCT', 'creditorAccount.currency NOK', { creditorAccount: { bban: CREDITOR_BBAN, currency: 'NOK' } }, ACCEPTED),
      row(
        'NDCT',
        'creditorAccount.currency XYZ',
        { creditorAccount: { bban: CREDITOR_BBAN, currency: 'XYZ' } },
        format('creditorAccount.currency'),
      ),
      row(
        'NDCT',
        'debtorAccount.currency XYZ',
        { debtorAccount: { bban: DEBTOR_BBAN, currency: 'XYZ' } },
        format('debtorAccount.currency'),
      ),
      row(
        'SCT',
        'creditorAccount.currency NOK',
        { creditorAccount: { iban: SCT_CREDITOR_IBAN, currency: 'NOK' } },
        format('creditorAccount.currency'),
      ),
      row('SCT', 'creditorAccount.currency EUR', { creditorAccount: { iban: SCT_CREDITOR_IBAN, currency: 'EUR' } }, ACCEPTED),
      row(
        'CBCT',
        'creditorAccount.currency EUR for SEK',
        { creditorAccount: { iban: SE_IBAN, currency: 'EUR' } },
        format('creditorAccount.currency'),
      ),
      row('CBCT', 'creditorAccount.currency SEK for SEK', { creditorAccount: { iban: SE_IBAN, currency: 'SEK' } }, ACCEPTED),
      row(
        'NCBCT',
        'creditorAccount.currency NOK for SEK',
        { creditorAccount: { iban: SE_IBAN, currency: 'NOK' } },
        format('creditorAccount.currency'),
      ),
    ]);
  });

  describe('amounts', () => {
    const nok = (amount: string) => ({ instructedAmount: { currency: 'NOK', amount } });
    singleTable([
      row('NDCT', 'amount 0', nok('0'), format('instructedAmount.amount')),
      row('NDCT', 'amount 0.00', nok('0.00'), format('instructedAmount.amount')),
      row('NDCT', 'amount -1.00', nok('-1.00'), format('instructedAmount.amount')),
      row('NDCT', 'amount 1.001 (three decimals for NOK)', nok('1.001'), format('instructedAmount.amount')),
      row('NDCT', 'amount 1,00 (decimal comma)', nok('1,00'), format('instructedAmount.amount')),
      row('NDCT', 'amount 01.00 (leading zero)', nok('01.00'), ACCEPTED),
      row('NDCT', 'amount 0.01', nok('0.01'), ACCEPTED),
      row('NDCT', 'amount 1', nok('1'), ACCEPTED),
      row('NDCT', 'amount 1.5', nok('1.5'), ACCEPTED),
      row(
        'CBCT',
        'JPY 1000.5 (JPY has no decimals)',
        { instructedAmount: { currency: 'JPY', amount: '1000.5' } },
        format('instructedAmount.amount'),
      ),
      row('CBCT', 'JPY 1000', { instructedAmount: { currency: 'JPY', amount: '1000' } }, ACCEPTED),
      row('SCT', 'EUR -0.01', { instructedAmount: { currency: 'EUR', amount: '-0.01' } }, format('instructedAmount.amount')),
    ]);
  });

  describe('creditor address, BIC and creditorAgent', () => {
    singleTable([
      row('NDCT', 'creditorAddress.country XX', { creditorAddress: { country: 'XX' } }, format('creditorAddress.country')),
      row('NDCT', 'creditorAddress.country NO', { creditorAddress: { country: 'NO' } }, ACCEPTED),
      row(
        'CBCT',
        'creditorAddress.country XX',
        { creditorAddress: { city: 'Stockholm', country: 'XX' } },
        format('creditorAddress.country'),
      ),
      row(
        'NCBCT',
        'creditorAddress.country XX',
        { creditorAddress: { city: 'Stockholm', country: 'XX' } },
        format('creditorAddress.country'),
      ),
      row('SCT', 'creditorAddress.country XX', { creditorAddress: { country: 'XX' } }, format('creditorAddress.country')),
      row('SCT', 'creditorAddress.country DE', { creditorAddress: { country: 'DE' } }, ACCEPTED),
      row(
        'NDCT',
        'creditorAddress postalCode 0155 and postCode 0150',
        { creditorAddress: { postalCode: '0155', postCode: '0150', country: 'NO' } },
        format('creditorAddress.postCode'),
      ),
      row(
        'NDCT',
        'creditorAddress street, postalCode, townName',
        { creditorAddress: { street: 'Storgata', postalCode: '0155', townName: 'Oslo', country: 'NO' } },
        ACCEPTED,
      ),
      row(
        'NCBCT',
        'creditorAddress without a town',
        { creditorAddress: { street: 'Kungsgatan', country: 'SE' } },
        format('creditorAddress.city'),
      ),
      row(
        'CBCT',
        'creditorAddress in Berlin Group names without a town',
        { creditorAddress: { streetName: 'Kungsgatan', country: 'SE' } },
        format('creditorAddress.townName'),
      ),
      row('CBCT', 'creditorAddress with townName only', { creditorAddress: { townName: 'Stockholm', country: 'SE' } }, ACCEPTED),
      row('SCT', 'creditorAddress without a town', { creditorAddress: { streetName: 'Hauptstraße', country: 'DE' } }, ACCEPTED),
      row('NCBCT', 'creditorAgent of 7 characters', { creditorAgent: 'ESSESES' }, format('creditorAgent')),
      row('NCBCT', 'creditorAgent in lower case', { creditorAgent: 'essesess' }, format('creditorAgent')),
      row('NCBCT', 'creditorAgent with country XX', { creditorAgent: 'ESSEXXSS' }, format('creditorAgent')),
      row('NCBCT', 'creditorAgent of 11 characters', { creditorAgent: 'ESSESESSXXX' }, ACCEPTED),
      row('CBCT', 'creditorAgent of 7 characters', { creditorAgent: 'ESSESES' }, format('creditorAgent')),
      row('SCT', 'creditorAgent of 7 characters', { creditorAgent: 'DEUTDEF' }, format('creditorAgent')),
      row('SCT', 'creditorAgent DEUTDEFF', { creditorAgent: 'DEUTDEFF' }, ACCEPTED),
      row(
        'CBCT',
        'creditor bban without creditorAgent',
        { creditorAccount: { bban: '50000000058398257466' }, creditorAgent: undefined },
        format('creditorAgent'),
      ),
      row('CBCT', 'creditor bban with creditorAgent', { creditorAccount: { bban: '50000000058398257466' } }, ACCEPTED),
      row('CBCT', 'creditor iban without creditorAgent', { creditorAgent: undefined }, ACCEPTED),
      row(
        'NCBCT',
        'creditor bban without creditorAgent',
        { creditorAccount: { bban: '50000000058398257466' }, creditorAgent: undefined },
        format('creditorAgent'),
      ),
      row('NCBCT', 'creditor bban with creditorAgent', { creditorAccount: { bban: '50000000058398257466' } }, ACCEPTED),
      row('NCBCT', 'creditor iban without creditorAgent', { creditorAgent: undefined }, ACCEPTED),
    ]);
  });

  describe('KID and remittance', () => {
    const KID_PATH = 'remittanceInformationStructured.reference';
    singleTable([
      row('NDCT', 'KID 12344 (MOD10)', kid('12344'), ACCEPTED),
      row('NDCT', 'KID 12343 (MOD11)', kid('12343'), ACCEPTED),
      row('NDCT', 'KID 1000005- (MOD11, check digit 10)', kid('1000005-'), ACCEPTED),
      row('NDCT', 'KID 99754667145676221 (neither)', kid('99754667145676221'), format(KID_PATH)),
      row('NDCT', 'KID 99754667145676221 without referenceType', kid('99754667145676221', undefined), format(KID_PATH)),
      row('NDCT', 'KID 12344 without referenceType', kid('12344', undefined), ACCEPTED),
      row('NDCT', 'empty SCOR reference', kid(''), refused('REQUIRED_KID_MISSING', KID_PATH)),
      row('NDCT', 'blank SCOR reference', kid('   '), refused('REQUIRED_KID_MISSING', KID_PATH)),
      row('NDCT', 'CINV reference that is no KID', kid('INV-2026/0042', 'CINV'), ACCEPTED),
      row('NDCT', 'CINV reference 99754667145676221', kid('99754667145676221', 'CINV'), ACCEPTED),
      row(
        'NDCT',
        'structured array with an invalid second KID',
        { remittanceInformationStructuredArray: [{ reference: '12344', referenceType: 'SCOR' }, { reference: '12345' }] },
        format('remittanceInformationStructuredArray[1].reference'),
      ),
      row(
        'NDCT',
        'structured array of valid KIDs',
        { remittanceInformationStructuredArray: [{ reference: '12344', referenceType: 'SCOR' }, { reference: '12343' }] },
        ACCEPTED,
      ),
      row(
        'NDCT',
        'structured array with a blank SCOR reference',
        { remittanceInformationStructuredArray: [{ reference: '', referenceType: 'SCOR' }] },
        refused('REQUIRED_KID_MISSING', 'remittanceInformationStructuredArray[0].reference'),
      ),
      row(
        'NDCT',
        'structured and unstructured',
        { ...kid('12344'), remittanceInformationUnstructured: 'Invoice 42' },
        format('remittanceInformationStructured'),
      ),
      row(
        'NDCT',
        'structured array and unstructured',
        { remittanceInformationStructuredArray: [{ reference: '12344' }], remittanceInformationUnstructured: 'Invoice 42' },
        format('remittanceInformationStructuredArray'),
      ),
      row(
        'NDCT',
        'structured and structured array',
        { ...kid('12344'), remittanceInformationStructuredArray: [{ reference: '12343' }] },
        format('remittanceInformationStructuredArray'),
      ),
      row('NDCT', 'unstructured only', { remittanceInformationUnstructured: 'Invoice 42' }, ACCEPTED),
      row('INDCTS', 'KID 99754667145676221', kid('99754667145676221'), format(KID_PATH)),
      row('SCT', 'KID 99754667145676221', kid('99754667145676221'), format(KID_PATH)),
      row(
        'SCT',
        'structured and unstructured',
        { ...kid('12344'), remittanceInformationUnstructured: 'x' },
        format('remittanceInformationStructured'),
      ),
      row('CBCT', 'KID 99754667145676221', kid('99754667145676221'), format(KID_PATH)),
      row('NCBCT', 'blank SCOR reference', kid(' '), refused('REQUIRED_KID_MISSING', KID_PATH)),
      row('NCBCT', 'KID 12343', kid('12343'), ACCEPTED),
    ]);
  });

  describe('regulatory reporting', () => {
    const amount = (currency: string, value: string) => ({ instructedAmount: { currency, amount: value } });
    const reported = { regulatoryReportingCode: '29', regulatoryReportingInformation: 'Consulting services' };
    singleTable([
      row('NCBCT', 'NOK 100 000.00 without code and information', amount('NOK', '100000.00'), format('regulatoryReportingCode')),
      row('NCBCT', 'NOK 100 000.00 with code and information', { ...amount('NOK', '100000.00'), ...reported }, ACCEPTED),
      row(
        'NCBCT',
        'NOK 100 000.00 with code only',
        { ...amount('NOK', '100000.00'), regulatoryReportingCode: '29' },
        format('regulatoryReportingInformation'),
      ),
      row('NCBCT', 'NOK 99 999.99 without code and information', amount('NOK', '99999.99'), ACCEPTED),
      // 93 457.94 SEK × 1.07 = NOK 99 999.9958, rounded to 100 000.00; 93 457.93 SEK is NOK 99 999.99.
      row('NCBCT', 'SEK 93 457.94 (NOK 100 000.00) without code', amount('SEK', '93457.94'), format('regulatoryReportingCode')),
      row('NCBCT', 'SEK 93 457.94 with code and information', { ...amount('SEK', '93457.94'), ...reported }, ACCEPTED),
      row('NCBCT', 'SEK 93 457.93 (NOK 99 999.99) without code', amount('SEK', '93457.93'), ACCEPTED),
      // 8 528.79 EUR × 11.725 = NOK 100 000.06; 8 528.78 EUR is NOK 99 999.95.
      row('NCBCT', 'EUR 8 528.79 (NOK 100 000.06) without code', amount('EUR', '8528.79'), format('regulatoryReportingCode')),
      row('NCBCT', 'EUR 8 528.78 (NOK 99 999.95) without code', amount('EUR', '8528.78'), ACCEPTED),
      row('NCBCT', 'BRL 1.00 (no NOK rate) without code', amount('BRL', '1.00'), format('regulatoryReportingCode')),
      row('NCBCT', 'BRL 1.00 (no NOK rate) with code and information', { ...amount('BRL', '1.00'), ...reported }, ACCEPTED),
      row('NCBCT', 'code 99, not in the list', { ...reported, regulatoryReportingCode: '99' }, format('regulatoryReportingCode')),
      row(
        'NCBCT',
        'code 014, not written as in the list',
        { ...reported, regulatoryReportingCode: '014' },
        format('regulatoryReportingCode'),
      ),
      row('NCBCT', 'code 14 with information', { ...reported, regulatoryReportingCode: '14' }, ACCEPTED),
      row('NCBCT', 'code without information', { regulatoryReportingCode: '29' }, format('regulatoryReportingInformation')),
      row(
        'NCBCT',
        'information without code',
        { regulatoryReportingInformation: 'Consulting services' },
        format('regulatoryReportingCode'),
      ),
      row(
        'NCBCT',
        'regulatoryReportingAmount in EUR for a SEK payment',
        { ...reported, regulatoryReportingAmount: { currency: 'EUR', amount: '10.00' } },
        format('regulatoryReportingAmount'),
      ),
      row(
        'NCBCT',
        'regulatoryReportingAmount above the instructed amount',
        { ...reported, regulatoryReportingAmount: { currency: 'SEK', amount: '1000.01' } },
        format('regulatoryReportingAmount'),
      ),
      row(
        'NCBCT',
        'regulatoryReportingAmount equal to the instructed amount',
        { ...reported, regulatoryReportingAmount: { currency: 'SEK', amount: '1000.00' } },
        ACCEPTED,
      ),
      row(
        'NCBCT',
        'regulatoryReportingAmount below the instructed amount',
        { ...reported, regulatoryReportingAmount: { currency: 'SEK', amount: '400.00' } },
        ACCEPTED,
      ),
      row(
        'NCBCT',
        'regulatoryReportingAmount of zero',
        { ...reported, regulatoryReportingAmount: { currency: 'SEK', amount: '0.00' } },
        format('regulatoryReportingAmount.amount'),
      ),
      row('CBCT', 'SEK 200 000.00 without code and information', amount('SEK', '200000.00'), ACCEPTED),
      row('CBCT', 'code 99', { ...reported, regulatoryReportingCode: '99' }, format('regulatoryReportingCode')),
      row('CBCT', 'code without information', { regulatoryReportingCode: '29' }, format('regulatoryReportingInformation')),
      row('CBCT', 'code and information', reported, ACCEPTED),
      row(
        'CBCT',
        'regulatoryReportingAmount above the instructed amount',
        { ...reported, regulatoryReportingAmount: { currency: 'SEK', amount: '2000.00' } },
        format('regulatoryReportingAmount'),
      ),
      row('SCT', 'EUR 50 000.00 without code and information', amount('EUR', '50000.00'), ACCEPTED),
      row('SCT', 'information without code', { regulatoryReportingInformation: 'Consulting services' }, format('regulatoryReportingCode')),
      row('SCT', 'code 99', { ...reported, regulatoryReportingCode: '99' }, format('regulatoryReportingCode')),
      row(
        'SCT',
        'regulatoryReportingAmount in NOK for a EUR payment',
        { ...reported, regulatoryReportingAmount: { currency: 'NOK', amount: '10.00' } },
        format('regulatoryReportingAmount'),
      ),
      row('SCT', 'code and information', reported, ACCEPTED),
    ]);
  });

  describe('requested execution date', () => {
    const on = (date: string) => ({ requestedExecutionDate: date });
    const DATE = 'requestedExecutionDate';
    singleTable([
      row('NDCT', 'yesterday 2026-11-19', on('2026-11-19'), refused('EXECUTION_DATE_INVALID', DATE)),
      row('NDCT', 'today 2026-11-20', on('2026-11-20'), ACCEPTED),
      row('NDCT', 'tomorrow 2026-11-21', on('2026-11-21'), ACCEPTED),
      row('NDCT', 'the last allowed day 2027-11-20', on('2027-11-20'), ACCEPTED),
      row('NDCT', 'one day beyond, 2027-11-21', on('2027-11-21'), refused('EXECUTION_DATE_INVALID', DATE)),
      row('NDCT', 'no such day 2027-02-29', on('2027-02-29'), format(DATE)),
      row('NDCT', 'no such day 2026-11-31', on('2026-11-31'), format(DATE)),
      row('NDCT', 'not YYYY-MM-DD: 20261120', on('20261120'), format(DATE)),
      row('INDCTS', 'today 2026-11-20', on('2026-11-20'), ACCEPTED),
      row('INDCTS', 'tomorrow 2026-11-21', on('2026-11-21'), refused('EXECUTION_DATE_INVALID', DATE)),
      row('INDCTS', 'yesterday 2026-11-19', on('2026-11-19'), refused('EXECUTION_DATE_INVALID', DATE)),
      row('INDCTS', 'no such day 2026-11-31', on('2026-11-31'), format(DATE)),
      row('SCT', 'yesterday 2026-11-19', on('2026-11-19'), refused('EXECUTION_DATE_INVALID', DATE)),
      row('SCT', 'the last allowed day 2027-11-20', on('2027-11-20'), ACCEPTED),
      row('CBCT', 'one day beyond, 2027-11-21', on('2027-11-21'), refused('EXECUTION_DATE_INVALID', DATE)),
      row('NCBCT', 'tomorrow 2026-11-21', on('2026-11-21'), ACCEPTED),
    ]);
  });

  it('returns the debtor as its BBAN, the debtor currency, the amount and the date', () => {
    const order = single('NDCT', {
      debtorAccount: { iban: DEBTOR_IBAN, currency: 'NOK' },
      instructedAmount: { currency: 'NOK', amount: '1234.5' },
      requestedExecutionDate: '2026-12-01',
    });
    expect(order.debtorBban).toBe(DEBTOR_BBAN);
    expect(order.debtorCurrency).toBe('NOK');
    expect(order.amount).toEqual({ minor: 123450n, currency: 'NOK' });
    expect(order.requestedExecutionDate).toBe('2026-12-01');
    const plain = single('CBCT');
    expect(plain.debtorCurrency).toBeUndefined();
    expect(plain.requestedExecutionDate).toBeUndefined();
    expect(plain.amount).toEqual({ minor: 100000n, currency: 'SEK' });
  });
});

describe('checkSinglePayment logical key', () => {
  const keyOf = (product: Short, patch: Body = {}) => single(product, patch).logicalKey;

  it.each(Object.keys(PRODUCTS) as Short[])('is equal for two equal %s orders', (product) => {
    expect(keyOf(product)).toBe(keyOf(product));
    expect(keyOf(product, { requestedExecutionDate: '2026-11-20', ...kid('12344') })).toBe(
      keyOf(product, { requestedExecutionDate: '2026-11-20', ...kid('12344') }),
    );
  });

  it.each([
    ['the creditor given as bban or as iban', { creditorAccount: { bban: CREDITOR_BBAN } }, { creditorAccount: { iban: CREDITOR_IBAN } }],
    ['the debtor given as bban or as iban', { debtorAccount: { bban: DEBTOR_BBAN } }, { debtorAccount: { iban: DEBTOR_IBAN } }],
    [
      'the amount written 100 or 0100.00',
      { instructedAmount: { currency: 'NOK', amount: '100' } },
      { instructedAmount: { currency: 'NOK', amount: '0100.00' } },
    ],
  ])('is equal for the same NDCT order with %s', (_name, a, b) => {
    expect(keyOf('NDCT', a)).toBe(keyOf('NDCT', b));
  });

  it.each([
    ['amount', { instructedAmount: { currency: 'NOK', amount: '100.01' } }],
    ['creditor', { creditorAccount: { bban: DEBTOR_BBAN } }],
    ['debtor', { debtorAccount: { bban: CREDITOR_BBAN } }],
    ['date (given vs absent)', { requestedExecutionDate: '2026-11-21' }],
    ['unstructured remittance', { remittanceInformationUnstructured: 'Invoice 42' }],
    ['KID', kid('12344')],
  ])('differs for NDCT when the %s differs', (_name, patch) => {
    expect(keyOf('NDCT', patch)).not.toBe(keyOf('NDCT'));
  });

  it.each([
    ['date', { requestedExecutionDate: '2026-11-21' }, { requestedExecutionDate: '2026-11-22' }],
    ['unstructured remittance', { remittanceInformationUnstructured: 'Invoice 42' }, { remittanceInformationUnstructured: 'Invoice 43' }],
    ['KID', kid('12344'), kid('12343')],
    [
      'KID in a structured array',
      { remittanceInformationStructuredArray: [{ reference: '12344' }] },
      { remittanceInformationStructuredArray: [{ reference: '12343' }] },
    ],
  ])('differs for NDCT when the %s differs between two given values', (_name, a, b) => {
    expect(keyOf('NDCT', a)).not.toBe(keyOf('NDCT', b));
  });

  it('differs between products for the same body', () => {
    expect(keyOf('NDCT')).not.toBe(keyOf('INDCTS'));
    expect(keyOf('NCBCT')).not.toBe(keyOf('CBCT'));
  });

  it.each([
    ['SCT', 'amount', { instructedAmount: { currency: 'EUR', amount: '100.01' } }],
    ['SCT', 'creditor', { creditorAccount: { iban: CREDITOR_IBAN } }],
    ['SCT', 'date', { requestedExecutionDate: '2026-11-21' }],
    ['SCT', 'remittance', { remittanceInformationUnstructured: 'Invoice 42' }],
    ['CBCT', 'amount', { instructedAmount: { currency: 'SEK', amount: '1000.01' } }],
    ['CBCT', 'currency', { instructedAmount: { currency: 'DKK', amount: '1000.00' } }],
    ['CBCT', 'creditor', { creditorAccount: { bban: '50000000058398257466' } }],
    ['NCBCT', 'date', { requestedExecutionDate: '2026-11-21' }],
    ['NCBCT', 'remittance', kid('12344')],
  ] as const)('differs for %s when the %s differs', (product, _name, patch) => {
    expect(keyOf(product, patch)).not.toBe(keyOf(product));
  });
});

describe('checkBulkPayment', () => {
  const ITEMS: Body[] = [
    { instructedAmount: { currency: 'NOK', amount: '100.00' }, creditorAccount: { bban: CREDITOR_BBAN }, creditorName: 'Kari Nordmann' },
    { instructedAmount: { currency: 'NOK', amount: '250.50' }, creditorAccount: { iban: CREDITOR_IBAN }, creditorName: 'Ola Nordmann' },
    {
      instructedAmount: { currency: 'NOK', amount: '0.01' },
      creditorAccount: { bban: DEBTOR_BBAN },
      creditorName: 'Per Hansen',
      ...kid('12344'),
    },
  ];
  const BULK: Body = { debtorAccount: { bban: DEBTOR_BBAN }, payments: ITEMS };

  /** The bulk with `patch` applied to the bulk, and `items` patches applied to its payments by index. */
  function bulk(patch: Body = {}, items: Readonly<Record<number, Body>> = {}) {
    const body = withFields(BULK, patch);
    body['payments'] = ITEMS.map((item, index) => withFields(item, items[index] ?? {}));
    return checkBulkPayment(body as BulkNdctBody, CONTEXT);
  }

  interface BulkRow {
    readonly name: string;
    readonly patch: Body;
    readonly items: Readonly<Record<number, Body>>;
    readonly expected: Outcome;
  }

  const DATE = 'requestedExecutionDate';
  it.each<BulkRow>([
    { name: 'the valid base bulk', patch: {}, items: {}, expected: ACCEPTED },
    {
      name: 'debtor bban with a wrong check digit',
      patch: { debtorAccount: { bban: '12345678904' } },
      items: {},
      expected: format('debtorAccount.bban'),
    },
    {
      name: 'debtor given as a German IBAN',
      patch: { debtorAccount: { iban: SCT_CREDITOR_IBAN } },
      items: {},
      expected: format('debtorAccount.iban'),
    },
    { name: 'debtor given as iban', patch: { debtorAccount: { iban: DEBTOR_IBAN } }, items: {}, expected: ACCEPTED },
    {
      name: 'second payment in EUR',
      patch: {},
      items: { 1: { instructedAmount: { currency: 'EUR', amount: '250.50' } } },
      expected: format('payments[1].instructedAmount.currency'),
    },
    {
      name: 'second payment of 0.00',
      patch: {},
      items: { 1: { instructedAmount: { currency: 'NOK', amount: '0.00' } } },
      expected: format('payments[1].instructedAmount.amount'),
    },
    {
      name: 'second payment of 01.00',
      patch: {},
      items: { 1: { instructedAmount: { currency: 'NOK', amount: '01.00' } } },
      expected: ACCEPTED,
    },
    {
      name: 'first creditor bban with a wrong check digit',
      patch: {},
      items: { 0: { creditorAccount: { bban: '86011117948' } } },
      expected: format('payments[0].creditorAccount.bban'),
    },
    {
      name: 'second creditor bban and iban of different accounts',
      patch: {},
      items: { 1: { creditorAccount: { bban: DEBTOR_BBAN, iban: CREDITOR_IBAN } } },
      expected: format('payments[1].creditorAccount.iban'),
    },
    {
      name: 'third creditor without bban and iban',
      patch: {},
      items: { 2: { creditorAccount: {} } },
      expected: format('payments[2].creditorAccount'),
    },
    {
      name: 'second creditorAccount.currency EUR',
      patch: {},
      items: { 1: { creditorAccount: { iban: CREDITOR_IBAN, currency: 'EUR' } } },
      expected: format('payments[1].creditorAccount.currency'),
    },
    {
      name: 'first creditorAddress.country XX',
      patch: {},
      items: { 0: { creditorAddress: { country: 'XX' } } },
      expected: format('payments[0].creditorAddress.country'),
    },
    {
      name: 'third KID 99754667145676221',
      patch: {},
      items: { 2: kid('99754667145676221') },
      expected: format('payments[2].remittanceInformationStructured.reference'),
    },
    {
      name: 'third KID blank',
      patch: {},
      items: { 2: kid(' ') },
      expected: refused('REQUIRED_KID_MISSING', 'payments[2].remittanceInformationStructured.reference'),
    },
    {
      name: 'third KID with unstructured remittance too',
      patch: {},
      items: { 2: { remittanceInformationUnstructured: 'Invoice 42' } },
      expected: format('payments[2].remittanceInformationStructured'),
    },
    { name: 'date yesterday', patch: { [DATE]: '2026-11-19' }, items: {}, expected: refused('EXECUTION_DATE_INVALID', DATE) },
    { name: 'date today', patch: { [DATE]: '2026-11-20' }, items: {}, expected: ACCEPTED },
    { name: 'date on the last allowed day', patch: { [DATE]: '2027-11-20' }, items: {}, expected: ACCEPTED },
    { name: 'date one day beyond', patch: { [DATE]: '2027-11-21' }, items: {}, expected: refused('EXECUTION_DATE_INVALID', DATE) },
    { name: 'date 2026-02-30', patch: { [DATE]: '2026-02-30' }, items: {}, expected: format(DATE) },
  ])('$name', ({ patch, items, expected }) => {
    expect(outcome(() => bulk(patch, items))).toEqual(expected);
  });

  it('totals the amounts of its payments', () => {
    const order = bulk({ requestedExecutionDate: '2026-12-01', debtorAccount: { iban: DEBTOR_IBAN, currency: 'NOK' } });
    expect(order.amount).toEqual({ minor: 10000n + 25050n + 1n, currency: 'NOK' });
    expect(order.debtorBban).toBe(DEBTOR_BBAN);
    expect(order.debtorCurrency).toBe('NOK');
    expect(order.requestedExecutionDate).toBe('2026-12-01');
  });

  it('totals a bulk of one payment as that payment', () => {
    const body = withFields(BULK, { payments: [ITEMS[1]] });
    expect(checkBulkPayment(body as BulkNdctBody, CONTEXT).amount).toEqual({ minor: 25050n, currency: 'NOK' });
  });

  it('has a logical key equal for equal bulks and different when a payment, the debtor or the date differs', () => {
    const base = bulk().logicalKey;
    expect(bulk().logicalKey).toBe(base);
    expect(bulk({}, { 1: { creditorAccount: { bban: CREDITOR_BBAN } } }).logicalKey).toBe(base);
    expect(bulk({}, { 1: { instructedAmount: { currency: 'NOK', amount: '250.51' } } }).logicalKey).not.toBe(base);
    expect(bulk({}, { 0: { creditorAccount: { bban: DEBTOR_BBAN } } }).logicalKey).not.toBe(base);
    expect(bulk({}, { 2: kid('12343') }).logicalKey).not.toBe(base);
    expect(bulk({}, { 0: { remittanceInformationUnstructured: 'Invoice 42' } }).logicalKey).not.toBe(base);
    expect(bulk({ requestedExecutionDate: '2026-11-21' }).logicalKey).not.toBe(base);
    expect(bulk({ debtorAccount: { bban: CREDITOR_BBAN } }).logicalKey).not.toBe(base);
  });
});

describe('checkPeriodicPayment', () => {
  const PERIODIC: Body = {
    debtorAccount: { bban: DEBTOR_BBAN },
    instructedAmount: { currency: 'NOK', amount: '500.00' },
    creditorAccount: { bban: CREDITOR_BBAN },
    creditorName: 'Kari Nordmann',
    startDate: '2026-12-01',
    frequency: 'Monthly',
  };

  function periodic(patch: Body = {}) {
    return checkPeriodicPayment(withFields(PERIODIC, patch) as PeriodicNdctBody, CONTEXT);
  }

  const MONTHS = 'monthsOfExecution';
  it.each([
    { name: 'the valid base body', patch: {}, expected: ACCEPTED },
    { name: 'startDate yesterday', patch: { startDate: '2026-11-19' }, expected: refused('EXECUTION_DATE_INVALID', 'startDate') },
    { name: 'startDate today', patch: { startDate: '2026-11-20' }, expected: ACCEPTED },
    { name: 'startDate on the last allowed day', patch: { startDate: '2027-11-20' }, expected: ACCEPTED },
    { name: 'startDate one day beyond', patch: { startDate: '2027-11-21' }, expected: refused('EXECUTION_DATE_INVALID', 'startDate') },
    { name: 'startDate 2026-11-31', patch: { startDate: '2026-11-31' }, expected: format('startDate') },
    { name: 'endDate before startDate', patch: { endDate: '2026-11-30' }, expected: format('endDate') },
    { name: 'endDate equal to startDate', patch: { endDate: '2026-12-01' }, expected: ACCEPTED },
    { name: 'endDate a year on', patch: { endDate: '2027-12-01' }, expected: ACCEPTED },
    { name: 'endDate 2027-02-29', patch: { endDate: '2027-02-29' }, expected: format('endDate') },
    { name: 'executionRule preceeding', patch: { executionRule: 'preceeding' }, expected: ACCEPTED },
    { name: 'MonthlyVariable without months', patch: { frequency: 'MonthlyVariable' }, expected: format(MONTHS) },
    { name: 'MonthlyVariable with months 3 and 9', patch: { frequency: 'MonthlyVariable', [MONTHS]: ['3', '9'] }, expected: ACCEPTED },
    {
      name: 'MonthlyVariable with month 3 twice',
      patch: { frequency: 'MonthlyVariable', [MONTHS]: ['3', '9', '3'] },
      expected: format(MONTHS),
    },
    { name: 'MonthlyVariable with no month', patch: { frequency: 'MonthlyVariable', [MONTHS]: [] }, expected: format(MONTHS) },
    { name: 'MonthlyVariable with month 13', patch: { frequency: 'MonthlyVariable', [MONTHS]: ['13'] }, expected: format(MONTHS) },
    { name: 'Monthly with months', patch: { [MONTHS]: ['3'] }, expected: format(MONTHS) },
    { name: 'Weekly with months', patch: { frequency: 'Weekly', [MONTHS]: ['3'] }, expected: format(MONTHS) },
    { name: 'dayOfExecution 05', patch: { dayOfExecution: '05' }, expected: format('dayOfExecution') },
    { name: 'dayOfExecution 32', patch: { dayOfExecution: '32' }, expected: format('dayOfExecution') },
    { name: 'dayOfExecution 0', patch: { dayOfExecution: '0' }, expected: format('dayOfExecution') },
    { name: 'dayOfExecution 5', patch: { dayOfExecution: '5' }, expected: ACCEPTED },
    { name: 'dayOfExecution 31', patch: { dayOfExecution: '31' }, expected: ACCEPTED },
    {
      name: 'Monthly on the 15th ending on the 10th of the start month',
      patch: { dayOfExecution: '15', endDate: '2026-12-10' },
      expected: format('endDate'),
    },
    {
      name: 'Monthly on the 15th ending on the 15th of the start month',
      patch: { dayOfExecution: '15', endDate: '2026-12-15' },
      expected: ACCEPTED,
    },
    // 2026-12-12 is a Saturday: the one date moves outside [startDate, endDate] by either rule.
    {
      name: 'startDate and endDate on a Saturday, following',
      patch: { startDate: '2026-12-12', endDate: '2026-12-12' },
      expected: format('endDate'),
    },
    {
      name: 'startDate and endDate on a Saturday, preceding',
      patch: { startDate: '2026-12-12', endDate: '2026-12-12', executionRule: 'preceding' },
      expected: format('endDate'),
    },
    {
      name: 'startDate on a Saturday, endDate the Monday after',
      patch: { startDate: '2026-12-12', endDate: '2026-12-14' },
      expected: ACCEPTED,
    },
    {
      name: 'MonthlyVariable in March ending in February',
      patch: { frequency: 'MonthlyVariable', [MONTHS]: ['3'], endDate: '2027-02-28' },
      expected: format('endDate'),
    },
    {
      name: 'instructed amount in EUR',
      patch: { instructedAmount: { currency: 'EUR', amount: '500.00' } },
      expected: format('instructedAmount.currency'),
    },
    {
      name: 'creditor bban with a wrong check digit',
      patch: { creditorAccount: { bban: '86011117948' } },
      expected: format('creditorAccount.bban'),
    },
    {
      name: 'debtor given as a German IBAN',
      patch: { debtorAccount: { iban: SCT_CREDITOR_IBAN } },
      expected: format('debtorAccount.iban'),
    },
    { name: 'KID 99754667145676221', patch: kid('99754667145676221'), expected: format('remittanceInformationStructured.reference') },
    { name: 'KID 12343', patch: kid('12343'), expected: ACCEPTED },
  ])('$name', ({ patch, expected }) => {
    expect(outcome(() => periodic(patch))).toEqual(expected);
  });

  it('normalises executionRule preceeding to preceding in the returned body and schedule, without touching the input', () => {
    const input = withFields(PERIODIC, { executionRule: 'preceeding', dayOfExecution: '5' }) as PeriodicNdctBody;
    const order = checkPeriodicPayment(input, CONTEXT);
    expect(order.body['executionRule']).toBe('preceding');
    expect(order.body).toEqual({ ...input, executionRule: 'preceding' });
    expect(order.schedule).toEqual({
      startDate: '2026-12-01',
      endDate: undefined,
      frequency: 'Monthly',
      dayOfExecution: 5,
      executionRule: 'preceding',
      monthsOfExecution: undefined,
    });
    expect(input.executionRule).toBe('preceeding');
    expect(scheduleOf(input)).toEqual(order.schedule);
    expect(scheduleOf(order.body)).toEqual(order.schedule);
  });

  it('keeps executionRule following, and adds none when it is absent', () => {
    expect(periodic({ executionRule: 'following' }).body['executionRule']).toBe('following');
    expect(periodic().body).not.toHaveProperty('executionRule');
    expect(periodic().schedule.executionRule).toBeUndefined();
  });

  it('returns the amount, the startDate as the date, and the schedule of MonthlyVariable', () => {
    const order = periodic({ frequency: 'MonthlyVariable', monthsOfExecution: ['9', '3'], endDate: '2028-12-31' });
    expect(order.amount).toEqual({ minor: 50000n, currency: 'NOK' });
    expect(order.requestedExecutionDate).toBe('2026-12-01');
    expect(order.schedule.monthsOfExecution).toEqual([9, 3]);
    expect(scheduleOf(order.body)).toEqual(order.schedule);
  });

  it('has a logical key equal for equal orders and different when amount, creditor, startDate or remittance differ', () => {
    const base = periodic().logicalKey;
    expect(periodic().logicalKey).toBe(base);
    expect(periodic({ creditorAccount: { iban: CREDITOR_IBAN } }).logicalKey).toBe(base);
    expect(periodic({ instructedAmount: { currency: 'NOK', amount: '500.01' } }).logicalKey).not.toBe(base);
    expect(periodic({ creditorAccount: { bban: DEBTOR_BBAN } }).logicalKey).not.toBe(base);
    expect(periodic({ startDate: '2026-12-02' }).logicalKey).not.toBe(base);
    expect(periodic({ frequency: 'Weekly' }).logicalKey).not.toBe(base);
    expect(periodic({ remittanceInformationUnstructured: 'Rent' }).logicalKey).not.toBe(base);
    expect(periodic(kid('12344')).logicalKey).not.toBe(periodic(kid('12343')).logicalKey);
  });
});

describe('the deprecated remittanceInformationStructured', () => {
  const ARRAY = { remittanceInformationStructuredArray: [{ reference: '12344', referenceType: 'SCOR' }] };
  const DOMESTIC_ITEM: Body = {
    instructedAmount: { currency: 'NOK', amount: '100.00' },
    creditorAccount: { bban: CREDITOR_BBAN },
    creditorName: 'Kari Nordmann',
  };

  it.each(Object.keys(PRODUCTS) as Short[])('%s: is stored as a one-entry remittanceInformationStructuredArray', (product) => {
    const { body } = single(product, kid('12344'));
    expect(body).not.toHaveProperty('remittanceInformationStructured');
    expect(body.remittanceInformationStructuredArray).toEqual(ARRAY.remittanceInformationStructuredArray);
  });

  it.each(Object.keys(PRODUCTS) as Short[])('%s: the array is stored as sent', (product) => {
    expect(single(product, ARRAY).body.remittanceInformationStructuredArray).toEqual(ARRAY.remittanceInformationStructuredArray);
  });

  it.each(Object.keys(PRODUCTS) as Short[])('%s: the same KID in either field is the same payment (logical key)', (product) => {
    expect(single(product, kid('12344')).logicalKey).toBe(single(product, ARRAY).logicalKey);
  });

  it('refuses both together with 400 FORMAT_ERROR at the array, saying the single one is deprecated', () => {
    try {
      single('NDCT', { ...kid('12344'), ...ARRAY });
      expect.unreachable('accepted both');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const refusal = error as AppError;
      expect({ code: refusal.code, path: refusal.path }).toEqual({ code: 'FORMAT_ERROR', path: 'remittanceInformationStructuredArray' });
      expect(refusal.detail?.en).toContain('remittanceInformationStructured, which it replaces (deprecated)');
    }
  });

  it("stores each bulk payment's KID in the array, and the bulk's key is the same for either field", () => {
    const bulkOf = (item: Body) =>
      checkBulkPayment(
        { debtorAccount: { bban: DEBTOR_BBAN }, payments: [DOMESTIC_ITEM, { ...DOMESTIC_ITEM, ...item }] } as BulkNdctBody,
        CONTEXT,
      );
    const sent = bulkOf(kid('12344'));
    expect(sent.body.payments[1]).toEqual({ ...DOMESTIC_ITEM, ...ARRAY });
    expect(sent.body.payments[0]).toEqual(DOMESTIC_ITEM);
    expect(sent.logicalKey).toBe(bulkOf(ARRAY).logicalKey);
    expect(outcome(() => bulkOf({ ...kid('12344'), ...ARRAY }))).toEqual(format('payments[1].remittanceInformationStructuredArray'));
  });

  it("stores a standing order's KID in the array, and its key is the same for either field", () => {
    const periodicOf = (patch: Body) =>
      checkPeriodicPayment(
        {
          debtorAccount: { bban: DEBTOR_BBAN },
          ...DOMESTIC_ITEM,
          startDate: '2026-12-01',
          frequency: 'Monthly',
          ...patch,
        } as PeriodicNdctBody,
        CONTEXT,
      );
    const sent = periodicOf(kid('12344'));
    expect(sent.body).not.toHaveProperty('remittanceInformationStructured');
    expect(sent.body.remittanceInformationStructuredArray).toEqual(ARRAY.remittanceInformationStructuredArray);
    expect(sent.logicalKey).toBe(periodicOf(ARRAY).logicalKey);
    expect(outcome(() => periodicOf({ ...kid('12344'), ...ARRAY }))).toEqual(format('remittanceInformationStructuredArray'));
  });
});
