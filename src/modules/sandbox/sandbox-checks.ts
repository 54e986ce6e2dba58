import type { AccountReference } from '../../bank/core-banking.port.js';
import { checkNorwegianBban } from '../../domain/bban.js';
import { checkIban, norwegianBbanOfIban } from '../../domain/iban.js';
import { localized, type Check, type Localized } from '../../domain/localized.js';
import { parseAmount, type Money } from '../../domain/money.js';
import { AppError } from '../../errors/app-error.js';

/**
 * Input rules shared by the mock-data services. Each refusal is a 400 FORMAT_ERROR whose `path`
 * names the field and whose text says what is wrong (docs/design.md §4: bad input changes nothing).
 */

export function refuse(path: string, detail: Localized): never {
  throw new AppError('FORMAT_ERROR', { detail: prefixed(path, detail), path });
}

/** A field's path below `parent`; an empty parent is the body itself. */
export function fieldPath(parent: string, field: string): string {
  return parent === '' ? field : `${parent}.${field}`;
}

function prefixed(path: string, detail: Localized): Localized {
  return localized(`${path} ${detail.en}`, `${path} ${detail.nb}`);
}

/** The checked value, or a 400 naming `path` with the check's reason. */
export function valid<T>(check: Check<T>, path: string): T {
  if (!check.ok) refuse(path, check.reason);
  return check.value;
}

/** An amount in the account's currency: the currency must be the account's. */
export function amountIn(amount: { currency: string; amount: string }, currency: string, path: string): Money {
  if (amount.currency !== currency) {
    refuse(
      fieldPath(path, 'currency'),
      localized(
        `must be the account's currency ${currency}, got ${amount.currency}`,
        `må være kontoens valuta ${currency}, men er ${amount.currency}`,
      ),
    );
  }
  return valid(parseAmount(amount.amount, currency), fieldPath(path, 'amount'));
}

/** A limit: a non-negative amount string in the account's currency; 0 means no right. */
export function limitIn(text: string | undefined, currency: string, path: string): Money | undefined {
  if (text === undefined) return undefined;
  const money = valid(parseAmount(text, currency), path);
  if (money.minor < 0n) refuse(path, localized(`must not be negative, got ${text}`, `kan ikke være negativ, men er ${text}`));
  return money;
}

/**
 * A Norwegian account named by BBAN and/or IBAN, with valid check digits. When both are given
 * they must name the same account. Answers the BBAN form, which every sandbox account has.
 */
export function norwegianAccount(reference: { bban?: string | undefined; iban?: string | undefined }, path: string): { bban: string } {
  const bban = reference.bban === undefined ? undefined : valid(checkNorwegianBban(reference.bban), fieldPath(path, 'bban'));
  let ofIban: string | undefined;
  if (reference.iban !== undefined) {
    const iban = valid(checkIban(reference.iban), fieldPath(path, 'iban'));
    ofIban = norwegianBbanOfIban(iban);
    if (ofIban === undefined) {
      refuse(
        fieldPath(path, 'iban'),
        localized(
          `must be a Norwegian (NO) IBAN: sandbox accounts are Norwegian, got ${iban}`,
          `må være et norsk (NO) IBAN: sandkassekontoer er norske, men er ${iban}`,
        ),
      );
    }
  }
  if (bban !== undefined && ofIban !== undefined && bban !== ofIban) {
    refuse(
      fieldPath(path, 'iban'),
      localized(
        `names account ${ofIban}, but bban names ${bban}: give one, or two that agree`,
        `viser til konto ${ofIban}, men bban viser til ${bban}: oppgi én, eller to som stemmer overens`,
      ),
    );
  }
  const found = bban ?? ofIban;
  if (found === undefined) refuse(path || 'body', localized('needs an iban or a bban', 'må ha iban eller bban'));
  return { bban: found };
}

/** Any account reference a counterparty may have (any country's IBAN, or a Norwegian BBAN). */
export function counterpartyAccount(
  reference: { bban?: string | undefined; iban?: string | undefined },
  path: string,
): AccountReference | undefined {
  if (reference.iban !== undefined) {
    const iban = valid(checkIban(reference.iban), fieldPath(path, 'iban'));
    if (reference.bban !== undefined && norwegianBbanOfIban(iban) !== reference.bban) {
      refuse(fieldPath(path, 'iban'), localized('does not name the same account as bban', 'viser ikke til samme konto som bban'));
    }
    return { iban };
  }
  if (reference.bban !== undefined) return { bban: valid(checkNorwegianBban(reference.bban), fieldPath(path, 'bban')) };
  return undefined;
}

/** A date of the past or today (the bank day in Norway). */
export function notFuture(date: string, today: string, path: string): string {
  if (date > today) {
    refuse(
      path,
      localized(
        `must not be in the future (today is ${today}), got ${date}`,
        `kan ikke være fram i tid (i dag er ${today}), men er ${date}`,
      ),
    );
  }
  return date;
}
