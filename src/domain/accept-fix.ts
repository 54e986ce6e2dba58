import { fail, localized, pass, type Check, type Localized } from './localized.js';

export type AcceptFixName =
  'amount-as-string' | 'cardaccount-switch-originalamount-and-transactionamount' | 'longer-name' | 'cash-account-type-iso';

/**
 * A response change a TPP can opt into early with `accept-fix` / `x-accept-fix`. Three months
 * after its release it becomes the default for everyone (see {@link defaultSince}).
 */
export interface AcceptFix {
  readonly name: AcceptFixName;
  readonly aliases: readonly string[];
  readonly releasedOn: string;
  readonly summary: Localized;
}

export const ACCEPT_FIXES: readonly AcceptFix[] = [
  {
    name: 'amount-as-string',
    aliases: [],
    releasedOn: '2019-11-01',
    summary: localized(
      'Amounts are JSON strings such as "100.33" (already the default; accepted and ignored).',
      'Beløp er JSON-strenger som "100.33" (allerede standard; godtas og ignoreres).',
    ),
  },
  {
    name: 'cardaccount-switch-originalamount-and-transactionamount',
    aliases: [],
    releasedOn: '2020-05-01',
    summary: localized(
      'Card transactions carry the amount in the card currency as transactionAmount and the merchant amount as originalAmount.',
      'Korttransaksjoner har beløpet i kortets valuta som transactionAmount og brukerstedets beløp som originalAmount.',
    ),
  },
  {
    name: 'longer-name',
    aliases: ['longer-names'],
    releasedOn: '2020-06-01',
    summary: localized(
      'The name of an account or card account is returned up to 70 characters instead of being cut at 35.',
      'Navnet på en konto eller kortkonto returneres med opptil 70 tegn i stedet for å kuttes ved 35.',
    ),
  },
  {
    name: 'cash-account-type-iso',
    aliases: [],
    releasedOn: '2020-09-01',
    summary: localized(
      'cashAccountType uses ISO 20022 ExternalCashAccountType1Code values (CACC, SVGS, …) instead of bank-specific texts.',
      'cashAccountType bruker ISO 20022 ExternalCashAccountType1Code-verdier (CACC, SVGS, …) i stedet for bankspesifikke tekster.',
    ),
  },
];

const BY_SPELLING = new Map<string, AcceptFixName>(
  ACCEPT_FIXES.flatMap((fix) => [fix.name, ...fix.aliases].map((spelling) => [spelling, fix.name] as const)),
);

/** The day (YYYY-MM-DD) a fix becomes the default: three months after its release. */
export function defaultSince(fix: AcceptFix): string {
  const [year = 0, month = 1, day = 1] = fix.releasedOn.split('-').map(Number);
  // Clamp to the target month's last day so 30 November does not roll over into March.
  const lastDay = new Date(Date.UTC(year, month + 2 + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month + 2, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

// Only a pair of quotes around the whole text counts: `"a", "b"` must not lose its outer two.
function unquote(text: string): string {
  const trimmed = text.trim();
  const quoted = /^"[^"]*"$/.test(trimmed);
  return quoted ? trimmed.slice(1, -1).trim() : trimmed;
}

/**
 * Parses an accept-fix header: comma-separated fix names (aliases and any case accepted), with
 * optional quotes around the whole value or each item; empty items are ignored.
 */
export function checkAcceptFix(value: string): Check<ReadonlySet<AcceptFixName>> {
  const fixes = new Set<AcceptFixName>();
  for (const item of unquote(value).split(',').map(unquote)) {
    if (item === '') continue;
    const fix = BY_SPELLING.get(item.toLowerCase());
    if (fix === undefined) {
      const shown = item.length > 60 ? `${item.slice(0, 60)}…` : item;
      const known = ACCEPT_FIXES.map((known) => known.name).join(', ');
      return fail(localized(`unknown fix "${shown}"; known fixes: ${known}`, `ukjent fiks "${shown}"; kjente fikser: ${known}`));
    }
    fixes.add(fix);
  }
  return pass(fixes);
}

/** The fixes in force for a request made on `today` (YYYY-MM-DD): those asked for and those now default. */
export function activeFixes(requested: ReadonlySet<AcceptFixName>, today: string): ReadonlySet<AcceptFixName> {
  const active = new Set(requested);
  for (const fix of ACCEPT_FIXES) if (defaultSince(fix) <= today) active.add(fix.name);
  return active;
}
