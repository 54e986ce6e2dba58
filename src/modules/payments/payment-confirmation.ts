import { displayDate, displayMoney } from '../../domain/display-format.js';
import { localized, type Localized } from '../../domain/localized.js';
import { parseAmount, type Money } from '../../domain/money.js';
import { REGULATORY_REPORTING_CODES } from '../../domain/regulatory-reporting.js';
import type { Confirmation, ConfirmationLine } from '../authorisations/authorisation-subject.js';
import type { PaymentProduct } from './payment-products.js';
import type { Payment } from './payment.model.js';

/*
 * What the PSU's confirmation page shows for a payment: exactly what the approval
 * does — amount in the PSU's language, creditor name and account, the creditor's bank, debtor
 * account, execution date or schedule, remittance, the currency-register text — or, for a
 * cancellation, what is cancelled. Not `debtorName`: the bank pays from the account's owner,
 * whatever name the TPP sent, so that name is not part of what the PSU approves.
 */

type Body = Record<string, unknown>;

const same = (text: string): Localized => localized(text, text);

/** What each product is called to a PSU. */
const PRODUCT_NAMES: Readonly<Record<PaymentProduct, Localized>> = {
  'norwegian-domestic-credit-transfers': localized('Domestic transfer', 'Innenlands betaling'),
  'instant-norwegian-domestic-credit-transfers-straks': localized('Instant domestic transfer', 'Straksbetaling'),
  'norwegian-cross-border-credit-transfers': localized('Payment abroad', 'Utenlandsbetaling'),
  'cross-border-credit-transfers': localized('Cross-border transfer', 'Overføring til utlandet'),
  'sepa-credit-transfers': localized('SEPA transfer (euro)', 'SEPA-overføring (euro)'),
};

const FREQUENCY_NAMES: Readonly<Record<string, Localized>> = {
  Daily: localized('every bank day', 'hver bankdag'),
  Weekly: localized('every week', 'hver uke'),
  EveryTwoWeeks: localized('every second week', 'hver andre uke'),
  Monthly: localized('every month', 'hver måned'),
  EveryTwoMonths: localized('every second month', 'hver andre måned'),
  Quarterly: localized('every quarter', 'hvert kvartal'),
  SemiAnnual: localized('every half year', 'hvert halvår'),
  Annual: localized('every year', 'hvert år'),
  MonthlyVariable: localized('in the chosen months', 'i valgte måneder'),
};

function objectAt(body: Body, key: string): Body | undefined {
  const value = body[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : undefined;
}

function stringAt(body: Body | undefined, key: string): string | undefined {
  const value = body?.[key];
  return typeof value === 'string' ? value : undefined;
}

function accountText(reference: Body | undefined): string {
  return stringAt(reference, 'iban') ?? stringAt(reference, 'bban') ?? '';
}

function amountOf(body: Body): Money | undefined {
  const amount = objectAt(body, 'instructedAmount');
  const currency = stringAt(amount, 'currency');
  const text = stringAt(amount, 'amount');
  if (currency === undefined || text === undefined) return undefined;
  const parsed = parseAmount(text, currency);
  return parsed.ok ? parsed.value : undefined;
}

function line(en: string, nb: string, value: Localized | string | undefined): ConfirmationLine[] {
  if (value === undefined || value === '') return [];
  return [{ label: localized(en, nb), value: typeof value === 'string' ? same(value) : value }];
}

/** The creditor, amount and remittance of one transfer (a single payment or one item of a bulk). */
function transferLines(body: Body): ConfirmationLine[] {
  const amount = amountOf(body);
  // A KID sent in the deprecated single `remittanceInformationStructured` is stored in the array (payment-document.ts).
  const structured = Array.isArray(body['remittanceInformationStructuredArray'])
    ? (body['remittanceInformationStructuredArray'] as Body[])
    : [];
  const kids = structured.map((item) => stringAt(item, 'reference')).filter((kid) => kid !== undefined);
  const code = stringAt(body, 'regulatoryReportingCode');
  const codeName = REGULATORY_REPORTING_CODES.find((entry) => entry.code === code)?.name;
  const information = stringAt(body, 'regulatoryReportingInformation');
  return [
    ...line('Amount', 'Beløp', amount && displayMoney(amount)),
    ...line('To', 'Til', stringAt(body, 'creditorName')),
    ...line('To account', 'Til konto', accountText(objectAt(body, 'creditorAccount'))),
    ...line('Creditor bank', 'Mottakers bank', stringAt(body, 'creditorAgentName')),
    ...line('Creditor bank (BIC)', 'Mottakers bank (BIC)', stringAt(body, 'creditorAgent')),
    ...line('KID', 'KID', kids.join(', ')),
    ...line('Message', 'Melding', stringAt(body, 'remittanceInformationUnstructured')),
    ...line(
      'Currency register',
      'Valutaregisteret',
      code === undefined
        ? undefined
        : localized(
            `${code} ${codeName?.en ?? ''}${information ? `: ${information}` : ''}`.replace(/\s+:/, ':').trim(),
            `${code} ${codeName?.nb ?? ''}${information ? `: ${information}` : ''}`.replace(/\s+:/, ':').trim(),
          ),
    ),
  ];
}

/** When the payment is executed: its date, "as soon as possible", or a standing order's schedule. */
function whenLines(payment: Payment): ConfirmationLine[] {
  if (payment.service === 'periodic-payments') {
    const body = payment.body;
    const start = stringAt(body, 'startDate');
    const end = stringAt(body, 'endDate');
    const day = stringAt(body, 'dayOfExecution');
    const frequency = FREQUENCY_NAMES[stringAt(body, 'frequency') ?? ''] ?? same(stringAt(body, 'frequency') ?? '');
    const months = body.monthsOfExecution?.join(', ');
    const from = start ? displayDate(start) : same('');
    const until = end ? displayDate(end) : undefined;
    return line(
      'Schedule',
      'Betalingsplan',
      localized(
        `${frequency.en}${day ? `, on day ${day}` : ''}${months ? ` (months ${months})` : ''}, from ${from.en}${until ? ` until ${until.en}` : ', until cancelled'}`,
        `${frequency.nb}${day ? `, den ${day}.` : ''}${months ? ` (måned ${months})` : ''}, fra ${from.nb}${until ? ` til ${until.nb}` : ', til den sies opp'}`,
      ),
    );
  }
  const date = payment.requestedExecutionDate;
  return line(
    'Execution date',
    'Utførelsesdato',
    date === undefined ? localized('as soon as possible', 'så snart som mulig') : displayDate(date),
  );
}

/** The confirmation of a payment's approval, or (`cancelling`) of its cancellation. */
export function paymentConfirmation(payment: Payment, cancelling: boolean): Confirmation {
  const body = payment.body;
  const product = PRODUCT_NAMES[payment.product];
  const common = [
    ...line('Payment type', 'Betalingstype', product),
    ...line('From account', 'Fra konto', accountText(objectAt(body, 'debtorAccount'))),
    ...whenLines(payment),
  ];
  const heading = cancelling
    ? payment.service === 'periodic-payments'
      ? localized('Stop this standing order', 'Stopp denne faste betalingen')
      : payment.service === 'bulk-payments'
        ? localized('Cancel these payments', 'Kanseller disse betalingene')
        : localized('Cancel this payment', 'Kanseller denne betalingen')
    : payment.service === 'periodic-payments'
      ? localized('Approve this standing order', 'Godkjenn denne faste betalingen')
      : payment.service === 'bulk-payments'
        ? localized('Approve these payments', 'Godkjenn disse betalingene')
        : localized('Approve this payment', 'Godkjenn denne betalingen');
  if (payment.service === 'bulk-payments') {
    const items = payment.body.payments;
    const total = { currency: payment.currency, minor: payment.amountMinor };
    return {
      heading,
      lines: [
        ...common,
        ...line('Number of payments', 'Antall betalinger', String(items.length)),
        ...line('Total', 'Sum', displayMoney(total)),
      ],
      items: items.map((item, index) => ({
        title: localized(`Payment ${index + 1}`, `Betaling ${index + 1}`),
        lines: transferLines(item),
      })),
    };
  }
  return { heading, lines: [...transferLines(body), ...common] };
}
