import { localized, type Localized } from '../../domain/localized.js';
import type { AuthorisationPurpose } from '../authorisations/authorisation.model.js';

/** Every text of the PSU's pages, in English and Bokmål (docs/design.md §2: Accept-Language picks one). */
export const SCA_TEXTS = {
  identifyHeading: localized('Log in', 'Logg inn'),
  identifyIntro: localized('asks you to log in to your bank.', 'ber deg logge inn i banken din.'),
  psuIdLabel: localized('National identity number (11 digits)', 'Fødselsnummer (11 siffer)'),
  psuIdLocked: localized('The app you came from named this customer.', 'Appen du kom fra oppga denne kunden.'),
  next: localized('Next', 'Neste'),
  appShortcut: localized('Confirm in the bank app (fingerprint or face)', 'Bekreft i bankappen (fingeravtrykk eller ansikt)'),
  appShortcutHint: localized(
    'On this phone you can confirm with the bank app instead of a one-time code.',
    'På denne telefonen kan du bekrefte med bankappen i stedet for engangskode.',
  ),
  codeHeading: localized('Enter your one-time code', 'Skriv inn engangskoden'),
  codeIntro: localized('We have sent a one-time code to your phone.', 'Vi har sendt en engangskode til telefonen din.'),
  codeSandboxHint: localized('Sandbox: the code is 123456.', 'Sandkasse: koden er 123456.'),
  codeLabel: localized('One-time code (6 digits)', 'Engangskode (6 siffer)'),
  externalLoginHeading: localized('Log in at your bank', 'Logg inn i banken din'),
  externalLoginAgain: localized('Log in again', 'Logg inn på nytt'),
  confirmIntro: localized(
    'Check the details. This is exactly what you approve.',
    'Kontroller opplysningene. Dette er nøyaktig det du godkjenner.',
  ),
  confirmCancellationIntro: localized(
    'Check the details. This is the payment you cancel.',
    'Kontroller opplysningene. Dette er betalingen du kansellerer.',
  ),
  requestedBy: localized('Requested by', 'Forespurt av'),
  approve: localized('Approve', 'Godkjenn'),
  reject: localized('Reject', 'Avvis'),
  confirmCancellation: localized('Cancel the payment', 'Kanseller betalingen'),
  keepPayment: localized('Keep the payment', 'Behold betalingen'),
  approvedHeading: localized('Done', 'Ferdig'),
  loggedIn: localized('You are logged in.', 'Du er logget inn.'),
  failedHeading: localized('Not completed', 'Ikke fullført'),
  continueTo: localized('Return to', 'Gå tilbake til'),
  closeWindow: localized('You can close this window and return to the app.', 'Du kan lukke dette vinduet og gå tilbake til appen.'),
  inProgress: localized(
    'Your approval is being processed. Reload this page in a moment.',
    'Godkjenningen behandles. Last inn siden på nytt om litt.',
  ),
  errorHeading: localized('Something is wrong', 'Noe er feil'),
  /** A page that failed on the server's side (500). */
  failed: localized('Something went wrong on our side. Try again in a moment.', 'Noe gikk galt hos oss. Prøv igjen om litt.'),
  /** A page asked for while the server shuts down (503). */
  unavailable: localized(
    'The service is not available just now. Try again in a moment.',
    'Tjenesten er ikke tilgjengelig akkurat nå. Prøv igjen om litt.',
  ),
  elsewhereHeading: localized('In progress in another browser', 'I gang i en annen nettleser'),
  elsewhere: localized(
    'This link has already been opened in another browser, and it can only be finished there. Go back to that browser, or start again from the app you came from.',
    'Denne lenken er allerede åpnet i en annen nettleser, og den kan bare fullføres der. Gå tilbake til den nettleseren, eller start på nytt fra appen du kom fra.',
  ),
  step: localized('Step', 'Steg'),
  of: localized('of', 'av'),
  sandbox: localized('Sandbox', 'Sandkasse'),
} as const;

/** What the PSU is doing, for the page title. */
export const PURPOSE_TITLES: Readonly<Record<AuthorisationPurpose, ReturnType<typeof localized>>> = {
  payment: localized('Approve payment', 'Godkjenn betaling'),
  'payment-cancellation': localized('Cancel payment', 'Kanseller betaling'),
  'signing-basket': localized('Approve payments', 'Godkjenn betalinger'),
  consent: localized('Share account information', 'Del kontoinformasjon'),
  'psu-login': localized('Log in', 'Logg inn'),
};

/** What the page showing a PSU login's code says about it: once, and for how long (XS2A_PSU_LOGIN_CODE_SECONDS). */
export function loginCodeIntro(lifetimeSeconds: number): Localized {
  const minutes = lifetimeSeconds / 60;
  // Whole minutes read better from two minutes on; below that, or uneven, the seconds.
  const [en, nb] =
    Number.isInteger(minutes) && minutes >= 2
      ? [`${minutes} minutes`, `${minutes} minutter`]
      : [`${lifetimeSeconds} seconds`, `${lifetimeSeconds} sekunder`];
  return localized(
    `Give this one-time code to the app that asked you to log in. It works once, within ${en}.`,
    `Gi denne engangskoden til appen som ba deg logge inn. Den virker én gang, innen ${nb}.`,
  );
}
