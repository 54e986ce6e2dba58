import { createHash } from 'node:crypto';
import { displayDate } from '../../domain/display-format.js';
import { localized, type Localized } from '../../domain/localized.js';
import type { Confirmation, ConfirmationLine } from '../authorisations/authorisation-subject.js';
import type { CompanyAgreement } from './company-accounts.js';
import { ACCESS_KINDS, namedAccounts, referenceKey, type AccessKind, type ConsentReference } from './consent-access.js';
import type { Grant, GrantedAccount } from './consent-grant.js';
import type { Consent } from './consent.model.js';
import { accountNamed, referenceText, type ShareableAccount } from './shareable-accounts.js';

/*
 * What the PSU reads before approving a consent (docs/design.md §2b): exactly what the TPP asks —
 * which accounts, whether balances and transactions, until when and how often — in plain words.
 */

const KIND_WORDS: Readonly<Record<AccessKind, Localized>> = {
  accounts: localized('account details', 'kontoopplysninger'),
  balances: localized('balances', 'saldo'),
  transactions: localized('transactions', 'transaksjoner'),
};

function listOf(kinds: readonly AccessKind[]): Localized {
  const join = (words: string[], and: string) =>
    words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${and} ${words.at(-1)}`;
  const en = join(
    kinds.map((kind) => KIND_WORDS[kind].en),
    'and',
  );
  const nb = join(
    kinds.map((kind) => KIND_WORDS[kind].nb),
    'og',
  );
  return localized(en.charAt(0).toUpperCase() + en.slice(1), nb.charAt(0).toUpperCase() + nb.slice(1));
}

const line = (label: Localized, value: Localized): ConfirmationLine => ({ label, value });

/** The value of an account's checkbox: derived from the TPP and the account, never the account's id itself. */
export function choiceValue(consent: Pick<Consent, 'tppId' | 'id'>, account: Pick<ShareableAccount, 'type' | 'bankAccountId'>): string {
  return createHash('sha256')
    .update(`${consent.tppId}:${consent.id}:${account.type}:${account.bankAccountId}`)
    .digest('base64url')
    .slice(0, 22);
}

/**
 * What a second approver of a partially authorised consent reads (consent-joint-approval.ts): that
 * another approver has approved, the accounts already chosen (nothing to tick again), what is read
 * of them, and any of them this PSU may not share.
 */
function grantedLines(grant: Grant, shareable: readonly ShareableAccount[]): ConfirmationLine[] {
  const labelOf = (account: GrantedAccount) =>
    shareable.find((candidate) => candidate.type === account.type && candidate.bankAccountId === account.bankAccountId)?.label;
  const lines = [
    line(
      localized('Approved by', 'Godkjent av'),
      localized(
        'Another approver of your company. Your approval completes the consent.',
        'En annen godkjenner i bedriften. Din godkjenning fullfører samtykket.',
      ),
    ),
  ];
  const labels = grant.accounts.map((account) => labelOf(account) ?? localized(referenceText(account.reference)));
  lines.push(
    line(
      localized('Accounts', 'Kontoer'),
      localized(labels.map((label) => label.en).join(', '), labels.map((label) => label.nb).join(', ')),
    ),
  );
  if (grant.listOnly) {
    lines.push(
      line(
        localized('Information', 'Opplysninger'),
        grant.listOnly.withBalance
          ? localized('The list of the accounts, with their balances', 'Listen over kontoene, med saldo')
          : localized('The list of the accounts', 'Listen over kontoene'),
      ),
    );
  } else {
    const kinds = ACCESS_KINDS.filter((kind) => grant.accounts.some((account) => account.kinds.includes(kind)));
    lines.push(line(localized('Information', 'Opplysninger'), listOf(kinds)));
  }
  const foreign = grant.accounts.filter((account) => labelOf(account) === undefined).map((account) => referenceText(account.reference));
  if (foreign.length > 0) lines.push(cannotBeShared(foreign));
  return lines;
}

/** The line naming accounts the PSU cannot share: the consent cannot be given with them. */
function cannotBeShared(references: readonly string[]): ConfirmationLine {
  const named = references.join(', ');
  return line(
    localized('Cannot be shared', 'Kan ikke deles'),
    localized(
      `${named}: not an account you can share. The consent cannot be given.`,
      `${named}: ikke en konto du kan dele. Samtykket kan ikke gis.`,
    ),
  );
}

/**
 * The line naming accounts of a corporate agreement the PSU is engaged on that the app asked for
 * as a private person (no PSU-Corporate-ID; company-accounts.ts): why the consent cannot be given
 * with them, and what the app must do instead.
 */
function askedForCompany(references: readonly string[], agreement: CompanyAgreement): ConfirmationLine {
  const named = references.join(', ');
  const several = references.length > 1;
  const { companyName, organisationNumber } = agreement;
  const agreementText =
    companyName === undefined
      ? localized("your company's agreement", 'avtalen til bedriften din')
      : localized(`the agreement of your company ${companyName}`, `avtalen til bedriften din ${companyName}`);
  return line(
    localized('Cannot be shared', 'Kan ikke deles'),
    localized(
      `${named}: ${several ? 'these accounts belong' : 'this account belongs'} to ${agreementText.en} (organisation number ${organisationNumber}), ` +
        `but the app asked for ${several ? 'them' : 'it'} on your own behalf, as a private person. The consent cannot be given. ` +
        'Ask the app to start again and ask on behalf of the company, with its organisation number (PSU-Corporate-ID).',
      `${named}: ${several ? 'kontoene hører' : 'kontoen hører'} til ${agreementText.nb} (organisasjonsnummer ${organisationNumber}), ` +
        `men appen ba om ${several ? 'dem' : 'den'} for deg selv, som privatperson. Samtykket kan ikke gis. ` +
        'Be appen starte på nytt og spørre på vegne av bedriften, med organisasjonsnummeret (PSU-Corporate-ID).',
    ),
  );
}

/**
 * The lines naming accounts the PSU cannot share: those of an agreement the PSU is engaged on, by
 * agreement, with why; the others as today, saying nothing of whose they are.
 */
function unshareableLines(
  references: readonly ConsentReference[],
  companyAccounts: ReadonlyMap<string, CompanyAgreement>,
): ConfirmationLine[] {
  const foreign: string[] = [];
  const byAgreement = new Map<string, { agreement: CompanyAgreement; references: string[] }>();
  for (const reference of references) {
    const agreement = companyAccounts.get(referenceKey(reference));
    if (agreement === undefined) {
      foreign.push(referenceText(reference));
      continue;
    }
    const entry = byAgreement.get(agreement.organisationNumber) ?? { agreement, references: [] };
    entry.references.push(referenceText(reference));
    byAgreement.set(agreement.organisationNumber, entry);
  }
  return [
    ...(foreign.length > 0 ? [cannotBeShared(foreign)] : []),
    ...[...byAgreement.values()].map((entry) => askedForCompany(entry.references, entry.agreement)),
  ];
}

/** Lines of what the TPP asks, for the consent's kind, before anyone approved it. */
function askedLines(
  consent: Consent,
  shareable: readonly ShareableAccount[],
  companyAccounts: ReadonlyMap<string, CompanyAgreement>,
): ConfirmationLine[] {
  const access = consent.access;
  const lines: ConfirmationLine[] = [];
  switch (access.kind) {
    case 'global':
      lines.push(
        line(localized('Accounts', 'Kontoer'), localized('All your accounts and card accounts', 'Alle kontoene og kortkontoene dine')),
      );
      lines.push(line(localized('Information', 'Opplysninger'), listOf(['accounts', 'balances', 'transactions'])));
      break;
    case 'account-list':
      lines.push(
        line(
          localized('Information', 'Opplysninger'),
          access.withBalance
            ? localized('The list of your accounts, with their balances', 'Listen over kontoene dine, med saldo')
            : localized('The list of your accounts', 'Listen over kontoene dine'),
        ),
      );
      break;
    case 'bank-offered':
      lines.push(
        line(
          localized('Information', 'Opplysninger'),
          localized(
            `${listOf(access.kinds).en} of the accounts you tick below`,
            `${listOf(access.kinds).nb} for kontoene du krysser av nedenfor`,
          ),
        ),
      );
      break;
    case 'detailed': {
      const named = namedAccounts(access);
      for (const kind of ['accounts', 'balances', 'transactions'] as const) {
        const references = access[kind];
        if (references.length === 0) continue;
        const text = references.map(referenceText).join(', ');
        lines.push(line(listOf([kind]), localized(text)));
      }
      const foreign = named.filter((entry) => accountNamed(shareable, entry.reference) === undefined).map((entry) => entry.reference);
      lines.push(...unshareableLines(foreign, companyAccounts));
      break;
    }
  }
  return lines;
}

/**
 * Lines of what is asked, for the consent's kind; `shareable`: what the identified PSU may share;
 * `companyAccounts`: of the accounts asked for that it cannot, those of its company's agreement
 * (company-accounts.ts).
 */
export function consentConfirmation(
  consent: Consent,
  shareable: readonly ShareableAccount[],
  companyAccounts: ReadonlyMap<string, CompanyAgreement> = new Map(),
): Confirmation {
  const access = consent.access;
  const lines: ConfirmationLine[] = [];
  let choices: Confirmation['choices'];
  if (consent.status === 'partiallyAuthorised' && consent.grant !== undefined) {
    lines.push(...grantedLines(consent.grant, shareable));
  } else {
    lines.push(...askedLines(consent, shareable, companyAccounts));
    if (access.kind === 'bank-offered') {
      choices = {
        legend: localized('Accounts to share', 'Kontoer som skal deles'),
        options: shareable.map((account) => ({ value: choiceValue(consent, account), label: account.label })),
      };
    }
  }
  const ownerName = access.kind === 'detailed' ? access.ownerName.length > 0 : access.ownerName;
  if (ownerName) {
    lines.push(
      line(localized('Owner name', 'Eiernavn'), localized("Yes: the name of the accounts' owner", 'Ja: navnet på kontoenes eier')),
    );
  }
  lines.push(line(localized('Valid until', 'Gyldig til'), displayDate(consent.validUntil)));
  lines.push(
    line(
      localized('How often', 'Hvor ofte'),
      consent.recurring
        ? localized(
            `Up to ${consent.frequencyPerDay} times a day when you are not using the app yourself`,
            `Opptil ${consent.frequencyPerDay} ganger per dag når du ikke selv bruker appen`,
          )
        : localized('Once', 'Én gang'),
    ),
  );
  return { heading: localized('Share account information', 'Del kontoinformasjon'), lines, ...(choices ? { choices } : {}) };
}
