import { localized, type Localized } from '../../domain/localized.js';
import type { ConsentStatus } from '../consents/consent-status.js';
import type { TransactionStatus } from '../payments/payment-status.js';

/** Every text of the PSU's own page of consents and payments, in English and Bokmål. */
export const OVERVIEW_TEXTS = {
  title: localized('Consents and payments', 'Samtykker og betalinger'),
  loginHeading: localized('Log in to see your consents', 'Logg inn for å se samtykkene dine'),
  loginIntro: localized(
    'See which apps you have given access to your accounts, end an access, and follow the payments apps have started for you.',
    'Se hvilke apper du har gitt tilgang til kontoene dine, avslutt en tilgang, og følg betalingene apper har startet for deg.',
  ),
  linkHeading: localized('Open the page from your TPP’s link', 'Åpne siden fra lenken til TPP-en din'),
  linkNeeded: localized(
    'In the sandbox each TPP has a sandbox bank of its own. This page opens on one of them only by a link the TPP gets from its sandbox with a signed request (POST /v1/sandbox/psu-page-links); the link works for 24 hours.',
    'I sandkassen har hver TPP sin egen sandkassebank. Denne siden åpnes på en av dem bare med en lenke TPP-en får fra sandkassen sin med en signert forespørsel (POST /v1/sandbox/psu-page-links); lenken virker i 24 timer.',
  ),
  linkRefused: localized('This link is unknown or has expired.', 'Denne lenken er ukjent eller utløpt.'),
  signedInAs: localized('Logged in as', 'Logget inn som'),
  logout: localized('Log out', 'Logg ut'),
  restart: localized('Start again', 'Start på nytt'),
  consentsHeading: localized('Access you have given to apps', 'Tilganger du har gitt til apper'),
  noConsents: localized('You have not given any app access to your accounts.', 'Du har ikke gitt noen app tilgang til kontoene dine.'),
  paymentsHeading: localized('Payments started by apps', 'Betalinger startet av apper'),
  noPayments: localized('No app has started a payment for you.', 'Ingen app har startet en betaling for deg.'),
  shares: localized('Shares', 'Deler'),
  accounts: localized('Accounts', 'Kontoer'),
  validUntil: localized('Valid until', 'Gyldig til'),
  status: localized('Status', 'Status'),
  lastUsed: localized('Last used', 'Sist brukt'),
  givenOn: localized('Given', 'Gitt'),
  revoke: localized('Revoke access', 'Trekk tilbake tilgangen'),
  revoked: localized(
    'The access is revoked. The app can no longer read your accounts with it.',
    'Tilgangen er trukket tilbake. Appen kan ikke lenger lese kontoene dine med den.',
  ),
  notValid: localized('That access has already ended.', 'Den tilgangen er allerede avsluttet.'),
  unknownConsent: localized('You have given no such access.', 'Du har ikke gitt en slik tilgang.'),
  amount: localized('Amount', 'Beløp'),
  to: localized('To', 'Til'),
  created: localized('Started', 'Startet'),
  executionDate: localized('Payment date', 'Betalingsdato'),
  payments: (count: number) => localized(`${count} payments`, `${count} betalinger`),
  allAccounts: localized('All your accounts and card accounts', 'Alle kontoene og kortkontoene dine'),
  accountList: localized('The list of your accounts', 'Listen over kontoene dine'),
  accountListWithBalances: localized('The list of your accounts, with their balances', 'Listen over kontoene dine, med saldo'),
  ownerName: localized("and the accounts' owner name", 'og navnet på kontoenes eier'),
  ended: localized(
    'Your session has ended, or the form did not come from this page. Log in again.',
    'Økten er avsluttet, eller skjemaet kom ikke fra denne siden. Logg inn på nytt.',
  ),
  again: localized('Log in again', 'Logg inn på nytt'),
} as const;

export const KIND_TEXTS = {
  accounts: localized('account details', 'kontoopplysninger'),
  balances: localized('balances', 'saldo'),
  transactions: localized('transactions', 'transaksjoner'),
} as const;

/** A consent's status as the PSU reads it. */
export const CONSENT_STATUS_TEXTS: Readonly<Record<ConsentStatus, Localized>> = {
  received: localized('Waiting for your approval', 'Venter på godkjenning'),
  partiallyAuthorised: localized('Partly approved', 'Delvis godkjent'),
  valid: localized('Active', 'Aktiv'),
  rejected: localized('Rejected', 'Avvist'),
  expired: localized('Expired', 'Utløpt'),
  revokedByPsu: localized('Revoked by you', 'Trukket tilbake av deg'),
  terminatedByTpp: localized('Ended by the app', 'Avsluttet av appen'),
};

/** A payment's transactionStatus as the PSU reads it. */
export const PAYMENT_STATUS_TEXTS: Readonly<Record<TransactionStatus, Localized>> = {
  RCVD: localized('Waiting for your approval', 'Venter på godkjenning'),
  PATC: localized('Partly approved', 'Delvis godkjent'),
  ACTC: localized('Approved', 'Godkjent'),
  PDNG: localized('Approved, waiting for its date', 'Godkjent, venter på betalingsdato'),
  ACCP: localized('Waiting for funds', 'Venter på dekning'),
  ACSP: localized('Being paid', 'Under utførelse'),
  ACSC: localized('Paid', 'Betalt'),
  ACCC: localized('Paid and received', 'Betalt og mottatt'),
  PART: localized('Partly paid', 'Delvis betalt'),
  RJCT: localized('Rejected', 'Avvist'),
  CANC: localized('Cancelled', 'Kansellert'),
};
