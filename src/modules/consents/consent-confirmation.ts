import { createHash } from 'node:crypto';
import { displayDate } from '../../domain/display-format.js';
import { localized, type Localized } from '../../domain/localized.js';
import type { Confirmation, ConfirmationLine } from '../authorisations/authorisation-subject.js';
import { ACCESS_KINDS, namedAccounts, type AccessKind } from './consent-access.js';
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

/** Lines of what the TPP asks, for the consent's kind, before anyone approved it. */
function askedLines(consent: Consent, shareable: readonly ShareableAccount[]): ConfirmationLine[] {
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
      const foreign = named
        .filter((entry) => accountNamed(shareable, entry.reference) === undefined)
        .map((entry) => referenceText(entry.reference));
      if (foreign.length > 0) lines.push(cannotBeShared(foreign));
      break;
    }
  }
  return lines;
}

/** Lines of what is asked, for the consent's kind; `shareable`: what the identified PSU may share. */
export function consentConfirmation(consent: Consent, shareable: readonly ShareableAccount[]): Confirmation {
  const access = consent.access;
  const lines: ConfirmationLine[] = [];
  let choices: Confirmation['choices'];
  if (consent.status === 'partiallyAuthorised' && consent.grant !== undefined) {
    lines.push(...grantedLines(consent.grant, shareable));
  } else {
    lines.push(...askedLines(consent, shareable));
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
