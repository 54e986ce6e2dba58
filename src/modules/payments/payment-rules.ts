import { createHash } from 'node:crypto';
import { checkBic } from '../../domain/bic.js';
import { checkCountryCode } from '../../domain/countries.js';
import { checkCurrencyCode } from '../../domain/currencies.js';
import { checkIban, norwegianBbanOfIban } from '../../domain/iban.js';
import { checkNorwegianBban } from '../../domain/bban.js';
import { addDays, checkIsoDate, type IsoDate } from '../../domain/iso-date.js';
import { checkKid } from '../../domain/kid.js';
import { localized, type Check, type Localized } from '../../domain/localized.js';
import { readPostalAddress, townFieldOf } from '../../domain/postal-address.js';
import { addMoney, checkPositiveAmount, compareMoney, formatAmount, type Money } from '../../domain/money.js';
import { isSepaSchemeCountry } from '../../domain/sepa-scheme-countries.js';
import { checkDayOfExecution, checkMonthsOfExecution, executionDates, type PeriodicSchedule } from '../../domain/periodic-schedule.js';
import { isRegulatoryReportingCode, requiresRegulatoryReporting, type NokRates } from '../../domain/regulatory-reporting.js';
import { AppError } from '../../errors/app-error.js';
import type { ErrorCode } from '../../errors/error-catalogue.js';
import type { PaymentBody } from './payment-document.js';
import { isInstant, type PaymentProduct } from './payment-products.js';
import { withStoredRemittance } from './structured-remittance.js';
import type {
  AccountReference,
  Amount,
  BulkItem,
  BulkNdctBody,
  InstantFeeInformationBody,
  PeriodicNdctBody,
  PostalAddress,
  SinglePaymentBody,
  StructuredRemittance,
} from './payment.schemas.js';

/**
 * The payment rules that the wire schema cannot express (docs/design.md §2), as pure
 * functions: each refuses with the field's path and the rule, and returns what the service needs
 * to go on (the debtor account to look up, the amount, the date, the duplicate fingerprint).
 */

export interface RuleContext {
  /** Today in the bank's time zone. */
  readonly today: IsoDate;
  /** How many days ahead a requested execution or start date may lie. */
  readonly maxDaysAhead: number;
  readonly nokRates: NokRates;
}

/** A validated payment order: what the service checks against the bank and stores. */
export interface PaymentOrder<Body extends PaymentBody = PaymentBody> {
  /** The debtor account as the bank looks it up: always its Norwegian BBAN. */
  readonly debtorBban: string;
  /** The currency the TPP named for the debtor account, if it did. */
  readonly debtorCurrency: string | undefined;
  /** The instructed amount; for a bulk the sum of its payments. */
  readonly amount: Money;
  readonly requestedExecutionDate: IsoDate | undefined;
  /** A domestic single payment's creditor account, as its Norwegian BBAN (the bank prices a Straks payment by it). */
  readonly creditorBban?: string | undefined;
  /** Fingerprint for the logical-duplicate rule (docs/design.md §2). */
  readonly logicalKey: string;
  /**
   * The fingerprint the same payment had when its one KID was sent in the deprecated single field
   * and stored so (before both fields were read as the array): equal to payments still live from then.
   */
  readonly formerLogicalKey?: string | undefined;
  /**
   * The body to store and answer on GET: the submitted one, address names as sent; only
   * `preceeding` is normalised, and a KID in the deprecated `remittanceInformationStructured` is
   * moved into `remittanceInformationStructuredArray`.
   */
  readonly body: Body;
}

/** One more than the largest NOK amount the wire format allows (14 digits, 2 decimals), in øre. */
const MAX_AMOUNT_MINOR_NOK = 10n ** 16n;

function refuse(path: string, reason: Localized, code: ErrorCode = 'FORMAT_ERROR'): never {
  throw new AppError(code, { path, detail: localized(`${path} ${reason.en}`, `${path} ${reason.nb}`) });
}

function must<T>(check: Check<T>, path: string, code: ErrorCode = 'FORMAT_ERROR'): T {
  if (!check.ok) refuse(path, check.reason, code);
  return check.value;
}

/** A Norwegian account: BBAN (MOD11) or NO IBAN (mod-97 and MOD11), and if both, the same account. */
function norwegianAccount(reference: AccountReference, path: string): string {
  const bban = reference.bban === undefined ? undefined : must(checkNorwegianBban(reference.bban), `${path}.bban`);
  if (reference.iban === undefined) {
    if (bban === undefined) {
      refuse(path, localized('needs a bban or an iban', 'må ha bban eller iban'));
    }
    return bban;
  }
  const iban = must(checkIban(reference.iban), `${path}.iban`);
  const ofIban = norwegianBbanOfIban(iban);
  if (ofIban === undefined) {
    refuse(
      `${path}.iban`,
      localized('must be a Norwegian IBAN (NO…) for this payment', 'må være et norsk IBAN (NO…) for denne betalingen'),
    );
  }
  if (bban !== undefined && bban !== ofIban) {
    refuse(`${path}.iban`, localized(`names another account than bban ${bban}`, `peker på en annen konto enn bban ${bban}`));
  }
  return ofIban;
}

/** A foreign creditor account: an IBAN of any country (checked), or the receiving bank's own account number. */
function foreignAccount(reference: AccountReference, path: string): string {
  if (reference.iban !== undefined) return must(checkIban(reference.iban), `${path}.iban`);
  if (reference.bban === undefined) refuse(path, localized('needs an iban or a bban', 'må ha iban eller bban'));
  if (!/^[A-Za-z0-9]{1,30}$/.test(reference.bban)) {
    refuse(`${path}.bban`, localized('must be 1 to 30 letters or digits', 'må være 1 til 30 bokstaver eller sifre'));
  }
  return reference.bban;
}

/**
 * An SCT reaches only an account held in the SEPA schemes' scope (EPC409-09, sepa-scheme-countries.ts),
 * known by the IBAN's country; elsewhere the payment is a cross-border credit transfer.
 */
function requireSepaSchemeCountry(iban: string, path: string): void {
  const country = iban.slice(0, 2);
  if (isSepaSchemeCountry(country)) return;
  refuse(
    path,
    localized(
      `is an account in ${country}, outside the countries of the SEPA schemes: a SEPA credit transfer cannot reach it; send it as cross-border-credit-transfers`,
      `er en konto i ${country}, utenfor landene i SEPA-ordningene: en SEPA-betaling kan ikke nå den; send den som cross-border-credit-transfers`,
    ),
  );
}

function amountOf(amount: Amount, path: string): Money {
  must(checkCurrencyCode(amount.currency), `${path}.currency`);
  return must(checkPositiveAmount(amount.amount, amount.currency), `${path}.amount`);
}

function requireCurrency(amount: Money, currency: string, path: string, product: string): void {
  if (amount.currency !== currency) {
    refuse(
      `${path}.currency`,
      localized(
        `must be ${currency} for ${product}, got ${amount.currency}`,
        `må være ${currency} for ${product}, men er ${amount.currency}`,
      ),
    );
  }
}

function accountCurrency(reference: AccountReference, path: string): string | undefined {
  return reference.currency === undefined ? undefined : must(checkCurrencyCode(reference.currency), `${path}.currency`);
}

function checkDate(text: string, path: string, context: RuleContext, code: ErrorCode = 'EXECUTION_DATE_INVALID'): IsoDate {
  const date = must(checkIsoDate(text), path, 'FORMAT_ERROR');
  if (date < context.today) {
    refuse(path, localized(`is in the past (today is ${context.today})`, `er tilbake i tid (i dag er ${context.today})`), code);
  }
  const last = addDays(context.today, context.maxDaysAhead);
  if (date > last) {
    refuse(
      path,
      localized(
        `is more than ${context.maxDaysAhead} days ahead (latest ${last})`,
        `er mer enn ${context.maxDaysAhead} dager fram i tid (senest ${last})`,
      ),
      code,
    );
  }
  return date;
}

/** KID rules (docs/design.md §2): a SCOR reference (or one without a type) is a KID that passes MOD10 or MOD11. */
function checkStructured(entry: StructuredRemittance, path: string): void {
  if (entry.referenceType !== undefined && entry.referenceType !== 'SCOR') return;
  if (entry.reference.trim() === '') {
    refuse(
      `${path}.reference`,
      localized('is empty: a SCOR reference carries the KID', 'er tom: en SCOR-referanse skal ha KID'),
      'REQUIRED_KID_MISSING',
    );
  }
  const kid = checkKid(entry.reference);
  if (!kid.ok) {
    refuse(`${path}.reference`, localized(`is not a valid KID: ${kid.reason.en}`, `er ikke en gyldig KID: ${kid.reason.nb}`));
  }
}

interface Remittance {
  remittanceInformationUnstructured?: string | undefined;
  remittanceInformationUnstructuredArray?: string[] | undefined;
  remittanceInformationStructured?: StructuredRemittance | undefined;
  remittanceInformationStructuredArray?: StructuredRemittance[] | undefined;
}

function checkRemittance(body: Remittance, prefix: string): void {
  const structured = body.remittanceInformationStructured !== undefined;
  const array = body.remittanceInformationStructuredArray !== undefined;
  if (structured && array) {
    refuse(
      `${prefix}remittanceInformationStructuredArray`,
      localized(
        'may not be sent together with remittanceInformationStructured, which it replaces (deprecated): send the KIDs in remittanceInformationStructuredArray only',
        'kan ikke sendes sammen med remittanceInformationStructured, som den erstatter (foreldet): send KID-ene bare i remittanceInformationStructuredArray',
      ),
    );
  }
  const lines = body.remittanceInformationUnstructuredArray;
  if (lines !== undefined && lines.length > 1) {
    refuse(
      `${prefix}remittanceInformationUnstructuredArray`,
      localized(
        `has ${lines.length} entries: a payment carries one message of at most 140 characters, sent as one entry (or as remittanceInformationUnstructured)`,
        `har ${lines.length} linjer: en betaling har én melding på høyst 140 tegn, sendt som én linje (eller som remittanceInformationUnstructured)`,
      ),
    );
  }
  if (lines !== undefined && body.remittanceInformationUnstructured !== undefined) {
    refuse(
      `${prefix}remittanceInformationUnstructuredArray`,
      localized(
        'may not be sent together with remittanceInformationUnstructured: a payment carries one message, sent in one of them',
        'kan ikke sendes sammen med remittanceInformationUnstructured: en betaling har én melding, sendt i ett av dem',
      ),
    );
  }
  const message =
    body.remittanceInformationUnstructured !== undefined
      ? 'remittanceInformationUnstructured'
      : lines !== undefined && lines.length > 0
        ? 'remittanceInformationUnstructuredArray'
        : undefined;
  if (message !== undefined && (structured || array)) {
    const field = structured ? 'remittanceInformationStructured' : 'remittanceInformationStructuredArray';
    refuse(
      `${prefix}${field}`,
      localized(
        `may not be sent together with ${message}: a payment carries either a KID or a message`,
        `kan ikke sendes sammen med ${message}: en betaling har enten KID eller melding`,
      ),
    );
  }
  if (body.remittanceInformationStructured) {
    checkStructured(body.remittanceInformationStructured, `${prefix}remittanceInformationStructured`);
  }
  body.remittanceInformationStructuredArray?.forEach((entry, index) =>
    checkStructured(entry, `${prefix}remittanceInformationStructuredArray[${index}]`),
  );
}

/**
 * An address in either spelling (docs/design.md §2), read once into what it means: a part given twice
 * with different values is refused at its Berlin Group name, the country must be ISO 3166, and
 * where the product needs the town, one of `city` and `townName` must be given. The body keeps the
 * names the TPP sent; only these checks read the canonical form.
 */
function checkAddress(address: PostalAddress, path: string, townRequired: boolean): void {
  const reading = readPostalAddress(address);
  if (!reading.ok) refuse(`${path}.${reading.field}`, reading.reason);
  const canonical = reading.value;
  must(checkCountryCode(canonical.country), `${path}.country`);
  if (townRequired && canonical.town === undefined) {
    refuse(
      `${path}.${townFieldOf(address)}`,
      localized(
        "is required: a cross-border payment names the creditor's town (city or townName)",
        'er påkrevd: en utenlandsbetaling oppgir mottakerens by (city eller townName)',
      ),
    );
  }
}

function checkCreditorAddress(address: PostalAddress | undefined, prefix: string, townRequired = false): void {
  if (address) checkAddress(address, `${prefix}creditorAddress`, townRequired);
}

/**
 * The amount and creditor account of a domestic transfer: NOK, to a Norwegian account held in
 * NOK. `amountPath` is where the amount was sent (`instructedAmount`, or `amount` in a fee query).
 */
function domesticAmountAndCreditor(
  instructed: Amount,
  amountPath: string,
  creditorAccount: AccountReference,
  prefix: string,
): { amount: Money; creditor: string } {
  const amount = amountOf(instructed, amountPath);
  requireCurrency(amount, 'NOK', amountPath, 'Norwegian domestic payments');
  const creditor = norwegianAccount(creditorAccount, `${prefix}creditorAccount`);
  const creditorCurrency = accountCurrency(creditorAccount, `${prefix}creditorAccount`);
  if (creditorCurrency !== undefined && creditorCurrency !== 'NOK') {
    refuse(
      `${prefix}creditorAccount.currency`,
      localized('must be NOK for a Norwegian domestic payment', 'må være NOK for en innenlandsk betaling'),
    );
  }
  return { amount, creditor };
}

/**
 * Norwegian domestic and SEPA credit transfers share their charges: each party pays its own bank
 * (SHAR, or SLEV: by the scheme's rules, which say the same). DEBT or CRED would have the bank
 * charge one party for the other's bank, which these schemes do not do, so they are refused rather
 * than taken and not honoured.
 */
function checkSharedCharges(chargeBearer: string | undefined, path: string): void {
  if (chargeBearer !== 'DEBT' && chargeBearer !== 'CRED') return;
  refuse(
    path,
    localized(
      `is ${chargeBearer}, which this product does not offer: Norwegian domestic and SEPA credit transfers share the charges, each party paying its own bank (SHAR or SLEV)`,
      `er ${chargeBearer}, som dette produktet ikke tilbyr: innenlandske betalinger og SEPA-betalinger deler gebyrene, hver part betaler sin egen bank (SHAR eller SLEV)`,
    ),
    'PARAMETER_NOT_SUPPORTED',
  );
}

/** The creditor of a domestic transfer (NDCT, INDCTS, bulk and periodic items). */
function domesticTransfer(item: BulkItem, prefix: string): { amount: Money; creditor: string } {
  const transfer = domesticAmountAndCreditor(item.instructedAmount, `${prefix}instructedAmount`, item.creditorAccount, prefix);
  // Routed by the account number; a BIC given beside it is still a BIC.
  if (item.creditorAgent !== undefined) must(checkBic(item.creditorAgent), `${prefix}creditorAgent`);
  checkSharedCharges(item.chargeBearer, `${prefix}chargeBearer`);
  checkCreditorAddress(item.creditorAddress, prefix);
  checkRemittance(item, prefix);
  return transfer;
}

/** A checked fee query of an instant payment: what the bank prices, by the payment's own rules. */
export interface InstantFeeQuery {
  readonly debtorBban: string;
  readonly debtorCurrency: string | undefined;
  readonly amount: Money;
  /** The creditor account's Norwegian BBAN. */
  readonly creditorBban: string;
}

/**
 * Checks the Straks fee information's body by the rules of the Straks payment itself: the debtor
 * and creditor accounts and the amount as an INDCTS payment has them. The amount comes as
 * Berlin Group `instructedAmount` or as `amount`, one of the two.
 */
export function checkInstantFeeQuery(body: InstantFeeInformationBody): InstantFeeQuery {
  if (body.instructedAmount !== undefined && body.amount !== undefined) {
    refuse(
      'amount',
      localized(
        'may not be sent together with instructedAmount: send one of them',
        'kan ikke sendes sammen med instructedAmount: send en av dem',
      ),
    );
  }
  const instructed = body.instructedAmount ?? body.amount;
  if (instructed === undefined) {
    refuse(
      'instructedAmount',
      localized(
        'is required (or amount): the amount of the payment to price',
        'er påkrevd (eller amount): beløpet til betalingen som skal prises',
      ),
    );
  }
  const amountPath = body.instructedAmount === undefined ? 'amount' : 'instructedAmount';
  const debtorBban = norwegianAccount(body.debtorAccount, 'debtorAccount');
  const debtorCurrency = accountCurrency(body.debtorAccount, 'debtorAccount');
  const { amount, creditor } = domesticAmountAndCreditor(instructed, amountPath, body.creditorAccount, '');
  return { debtorBban, debtorCurrency, amount, creditorBban: creditor };
}

/** Currency-register reporting (norway-domain.md §5): required from NOK 100 000, validated whenever given. */
function checkRegulatoryReporting(body: SinglePaymentBody, amount: Money, context: RuleContext, required: boolean): void {
  const { regulatoryReportingCode: code, regulatoryReportingInformation: information, regulatoryReportingAmount } = body;
  if (code !== undefined && !isRegulatoryReportingCode(code)) {
    refuse(
      'regulatoryReportingCode',
      localized(`${code} is not a payment-type code of the currency register`, `${code} er ikke en betalingsartkode i valutaregisteret`),
    );
  }
  if (regulatoryReportingAmount !== undefined) {
    const reported = amountOf(regulatoryReportingAmount, 'regulatoryReportingAmount');
    if (reported.currency !== amount.currency || compareMoney(reported, amount) > 0) {
      refuse(
        'regulatoryReportingAmount',
        localized(
          `must be in ${amount.currency} and at most the instructed amount ${formatAmount(amount)}`,
          `må være i ${amount.currency} og høyst det overførte beløpet ${formatAmount(amount)}`,
        ),
      );
    }
  }
  const overThreshold = required && (requiresRegulatoryReporting(amount, context.nokRates) ?? true);
  const why = overThreshold
    ? localized(
        'is required: the amount is NOK 100 000 or more (or has no NOK rate)',
        'er påkrevd: beløpet er NOK 100 000 eller mer (eller mangler NOK-kurs)',
      )
    : localized('is required together with the other regulatory reporting field', 'er påkrevd sammen med det andre rapporteringsfeltet');
  if (code === undefined && (overThreshold || information !== undefined)) refuse('regulatoryReportingCode', why);
  if (information === undefined && (overThreshold || code !== undefined)) refuse('regulatoryReportingInformation', why);
}

function fingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/**
 * The remittance part of the duplicate fingerprint, of a body whose KIDs are in the array
 * ({@link withStoredRemittance}): a KID sent in the deprecated single field and the same KID sent
 * in the array are the same payment. (The null stands where the single field's KID was, so the
 * fingerprints of payments stored before with the array stay the same.)
 */
function remittanceOf(body: Remittance): unknown {
  return [
    body.remittanceInformationUnstructured ?? null,
    null,
    body.remittanceInformationStructuredArray?.map((entry) => entry.reference) ?? null,
  ];
}

function isDomesticProduct(product: PaymentProduct): boolean {
  return product === 'norwegian-domestic-credit-transfers' || product === 'instant-norwegian-domestic-credit-transfers-straks';
}

/** Checks a single payment of any of the five products. */
export function checkSinglePayment(
  product: PaymentProduct,
  body: SinglePaymentBody,
  context: RuleContext,
): PaymentOrder<SinglePaymentBody> {
  const debtorBban = norwegianAccount(body.debtorAccount, 'debtorAccount');
  const debtorCurrency = accountCurrency(body.debtorAccount, 'debtorAccount');
  let amount: Money;
  let creditor: string;
  switch (product) {
    case 'norwegian-domestic-credit-transfers':
    case 'instant-norwegian-domestic-credit-transfers-straks':
      ({ amount, creditor } = domesticTransfer(body, ''));
      break;
    case 'sepa-credit-transfers': {
      amount = amountOf(body.instructedAmount, 'instructedAmount');
      requireCurrency(amount, 'EUR', 'instructedAmount', 'SEPA credit transfers');
      if (body.creditorAccount.iban === undefined) {
        refuse('creditorAccount.iban', localized('is required for a SEPA credit transfer', 'er påkrevd for en SEPA-betaling'));
      }
      creditor = must(checkIban(body.creditorAccount.iban), 'creditorAccount.iban');
      requireSepaSchemeCountry(creditor, 'creditorAccount.iban');
      checkSharedCharges(body.chargeBearer, 'chargeBearer');
      checkCreditorSide(body, amount, context, { reportingRequired: false, townRequired: false });
      break;
    }
    case 'norwegian-cross-border-credit-transfers':
    case 'cross-border-credit-transfers': {
      amount = amountOf(body.instructedAmount, 'instructedAmount');
      creditor = foreignAccount(body.creditorAccount, 'creditorAccount');
      if (body.creditorAgent === undefined && body.creditorAccount.iban === undefined) {
        refuse('creditorAgent', localized('is required when creditorAccount has no iban', 'er påkrevd når creditorAccount ikke har iban'));
      }
      checkCreditorSide(body, amount, context, {
        reportingRequired: product === 'norwegian-cross-border-credit-transfers',
        townRequired: true,
      });
      break;
    }
  }
  let requestedExecutionDate: IsoDate | undefined;
  if (body.requestedExecutionDate !== undefined) {
    requestedExecutionDate = checkDate(body.requestedExecutionDate, 'requestedExecutionDate', context);
    if (isInstant(product) && requestedExecutionDate !== context.today) {
      refuse(
        'requestedExecutionDate',
        localized(`must be today (${context.today}) for an instant payment`, `må være i dag (${context.today}) for en straksbetaling`),
        'EXECUTION_DATE_INVALID',
      );
    }
  }
  const stored = withStoredRemittance(body);
  // No date means today: a payment dated today and one without a date are the same payment.
  const keyWith = (remittance: unknown) =>
    fingerprint([
      'payments',
      product,
      debtorBban,
      creditor,
      formatAmount(amount),
      amount.currency,
      requestedExecutionDate ?? context.today,
      remittance,
    ]);
  const kids = stored.remittanceInformationStructuredArray;
  return {
    debtorBban,
    debtorCurrency,
    amount,
    requestedExecutionDate,
    creditorBban: isDomesticProduct(product) ? creditor : undefined,
    logicalKey: keyWith(remittanceOf(stored)),
    formerLogicalKey:
      kids?.length === 1 ? keyWith([stored.remittanceInformationUnstructured ?? null, kids[0]!.reference, null]) : undefined,
    body: stored,
  };
}

/** Creditor currency, agent, address and reporting of the cross-border and SEPA products. */
function checkCreditorSide(
  body: SinglePaymentBody,
  amount: Money,
  context: RuleContext,
  { reportingRequired, townRequired }: { reportingRequired: boolean; townRequired: boolean },
): void {
  const creditorCurrency = accountCurrency(body.creditorAccount, 'creditorAccount');
  if (creditorCurrency !== undefined && creditorCurrency !== amount.currency) {
    refuse(
      'creditorAccount.currency',
      localized(`must be the instructed currency ${amount.currency}`, `må være samme valuta som beløpet, ${amount.currency}`),
    );
  }
  if (body.creditorAgent !== undefined) must(checkBic(body.creditorAgent), 'creditorAgent');
  checkCreditorAddress(body.creditorAddress, '', townRequired);
  checkRemittance(body, '');
  checkRegulatoryReporting(body, amount, context, reportingRequired);
}

/** Checks a bulk of Norwegian domestic payments: one debtor and date, each payment checked with its index in the path. */
export function checkBulkPayment(body: BulkNdctBody, context: RuleContext): PaymentOrder<BulkNdctBody> {
  const debtorBban = norwegianAccount(body.debtorAccount, 'debtorAccount');
  const debtorCurrency = accountCurrency(body.debtorAccount, 'debtorAccount');
  const requestedExecutionDate =
    body.requestedExecutionDate === undefined ? undefined : checkDate(body.requestedExecutionDate, 'requestedExecutionDate', context);
  let total: Money = { minor: 0n, currency: 'NOK' };
  const payments = body.payments.map(withStoredRemittance);
  const items = body.payments.map((item, index) => {
    const { amount, creditor } = domesticTransfer(item, `payments[${index}].`);
    total = addMoney(total, amount);
    return [creditor, formatAmount(amount), remittanceOf(payments[index]!)];
  });
  // Each payment fits the amount format; their sum must too (it is what the debtor is charged).
  if (total.minor >= MAX_AMOUNT_MINOR_NOK) {
    refuse(
      'payments',
      localized(
        'add up to more than the largest amount, 99999999999999.99 NOK',
        'summerer seg til mer enn det største beløpet, 99999999999999.99 NOK',
      ),
    );
  }
  return {
    debtorBban,
    debtorCurrency,
    amount: total,
    requestedExecutionDate,
    logicalKey: fingerprint(['bulk-payments', debtorBban, requestedExecutionDate ?? context.today, items]),
    body: { ...body, payments },
  };
}

/** A checked periodic payment: the order, and the schedule its GET shows dates of. */
export interface PeriodicOrder extends PaymentOrder<PeriodicNdctBody> {
  readonly schedule: PeriodicSchedule;
}

/** Checks a periodic Norwegian domestic payment and its schedule (docs/design.md §2, norway-domain.md §4.2). */
export function checkPeriodicPayment(body: PeriodicNdctBody, context: RuleContext): PeriodicOrder {
  const debtorBban = norwegianAccount(body.debtorAccount, 'debtorAccount');
  const debtorCurrency = accountCurrency(body.debtorAccount, 'debtorAccount');
  const { amount, creditor } = domesticTransfer(body, '');
  const startDate = checkDate(body.startDate, 'startDate', context);
  let endDate: IsoDate | undefined;
  if (body.endDate !== undefined) {
    endDate = must(checkIsoDate(body.endDate), 'endDate');
    if (endDate < startDate) refuse('endDate', localized(`is before startDate ${startDate}`, `er før startDate ${startDate}`));
  }
  const executionRule = body.executionRule === 'preceeding' ? 'preceding' : body.executionRule;
  const dayOfExecution = body.dayOfExecution === undefined ? undefined : must(checkDayOfExecution(body.dayOfExecution), 'dayOfExecution');
  let monthsOfExecution: number[] | undefined;
  if (body.frequency === 'MonthlyVariable') {
    if (body.monthsOfExecution === undefined) {
      refuse(
        'monthsOfExecution',
        localized('is required when frequency is MonthlyVariable', 'er påkrevd når frequency er MonthlyVariable'),
      );
    }
    monthsOfExecution = must(checkMonthsOfExecution(body.monthsOfExecution), 'monthsOfExecution');
  } else if (body.monthsOfExecution !== undefined) {
    refuse(
      'monthsOfExecution',
      localized('is only allowed when frequency is MonthlyVariable', 'er bare tillatt når frequency er MonthlyVariable'),
    );
  }
  const schedule: PeriodicSchedule = { startDate, endDate, frequency: body.frequency, dayOfExecution, executionRule, monthsOfExecution };
  if (executionDates(schedule, { from: startDate, count: 1 }).length === 0) {
    // endDate and startDate bound the moved dates too (periodic-schedule.ts): a Saturday start and end has none.
    refuse(
      'endDate',
      localized(
        `leaves no execution date in the schedule: no date, once the executionRule moves it onto a bank day, lies from startDate ${startDate} to endDate ${String(endDate)}`,
        `gir ingen utførelsesdato i planen: ingen dato, flyttet til en bankdag etter executionRule, ligger fra startDate ${startDate} til endDate ${String(endDate)}`,
      ),
    );
  }
  const normalised: PeriodicNdctBody = withStoredRemittance({ ...body, ...(executionRule === undefined ? {} : { executionRule }) });
  return {
    debtorBban,
    debtorCurrency,
    amount,
    requestedExecutionDate: startDate,
    logicalKey: fingerprint(['periodic-payments', debtorBban, creditor, formatAmount(amount), remittanceOf(normalised), schedule]),
    body: normalised,
    schedule,
  };
}

/** The schedule of a stored periodic payment's body (already checked when it was created). */
export function scheduleOf(body: PeriodicNdctBody): PeriodicSchedule {
  return {
    startDate: body.startDate,
    endDate: body.endDate,
    frequency: body.frequency,
    dayOfExecution: body.dayOfExecution === undefined ? undefined : Number(body.dayOfExecution),
    executionRule: body.executionRule === 'preceeding' ? 'preceding' : body.executionRule,
    monthsOfExecution: body.monthsOfExecution?.map(Number),
  };
}
