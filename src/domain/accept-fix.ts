import { fail, localized, pass, type Check, type Localized } from './localized.js';

export type AcceptFixName =
  'amount-as-string' | 'cardaccount-switch-originalamount-and-transactionamount' | 'longer-name' | 'cash-account-type-iso';

/**
 * A response change a TPP can opt into early with `accept-fix` / `x-accept-fix`. The bank announces
 * in a release note the day it becomes the default for everyone, three months later (see
 * {@link defaultSince}); before that day only a TPP that sends the header gets it.
 *
 * The dates come from the bank's documentation page of future breaking changes (docs/design.md
 * §2): it gives the month each fix was first offered and the day it was made the default;
 * `releasedOn` is that day less the three months' notice. The page's row for
 * `cash-account-type-iso` is cut off: we take it to have gone default with the other account
 * information fixes, and say so.
 */
export interface AcceptFix {
  readonly name: AcceptFixName;
  readonly aliases: readonly string[];
  /** YYYY-MM the header value was first accepted; undefined where the bank's page does not say. */
  readonly offeredSince: string | undefined;
  /** YYYY-MM-DD of the release note that set the default date. */
  readonly releasedOn: string;
  /** Why a date is our assumption rather than the bank's word, when it is. */
  readonly assumption?: string;
  readonly summary: Localized;
}

export const ACCEPT_FIXES: readonly AcceptFix[] = [
  {
    name: 'amount-as-string',
    aliases: [],
    offeredSince: '2019-11',
    releasedOn: '2020-05-01',
    summary: localized(
      'Amounts are JSON strings such as "100.33" (always so here; accepted and ignored).',
      'Beløp er JSON-strenger som "100.33" (alltid slik her; godtas og ignoreres).',
    ),
  },
  {
    name: 'cardaccount-switch-originalamount-and-transactionamount',
    aliases: [],
    offeredSince: '2020-05',
    releasedOn: '2024-06-05',
    summary: localized(
      'Card transactions: transactionAmount is the amount in the card currency and originalAmount what the merchant charged (without it the two are swapped, as the bank has always sent them).',
      'Korttransaksjoner: transactionAmount er beløpet i kortets valuta og originalAmount det brukerstedet belastet (uten den er de byttet om, slik banken alltid har sendt dem).',
    ),
  },
  {
    name: 'longer-name',
    aliases: ['longer-names'],
    offeredSince: '2020-06',
    releasedOn: '2024-06-05',
    summary: localized(
      'The name of an account or card account is returned with up to 70 characters instead of being cut at 35.',
      'Navnet på en konto eller kortkonto returneres med opptil 70 tegn i stedet for å kuttes ved 35.',
    ),
  },
  {
    name: 'cash-account-type-iso',
    aliases: [],
    offeredSince: undefined,
    releasedOn: '2024-06-05',
    assumption: "the bank's page is cut off here: taken to have gone default with the other account information fixes",
    summary: localized(
      "cashAccountType is the ISO 20022 ExternalCashAccountType1Code (CACC, SVGS, …) instead of the bank's product word (BRUKSKONTO, SPAREKONTO, …).",
      'cashAccountType er ISO 20022 ExternalCashAccountType1Code (CACC, SVGS, …) i stedet for bankens produktord (BRUKSKONTO, SPAREKONTO, …).',
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

/**
 * The fixes as one Markdown table (name, what changes, offered since, release, default since):
 * the README shows it and the API docs (/docs) describe the header with it, from this one list.
 */
export function acceptFixTable(): string {
  const rows = ACCEPT_FIXES.map((fix) => {
    const name = [fix.name, ...fix.aliases].map((spelling) => `\`${spelling}\``).join(' or ');
    const offered = fix.offeredSince ?? 'not published';
    const released = fix.assumption === undefined ? fix.releasedOn : `${fix.releasedOn} (assumed: ${fix.assumption})`;
    return `| ${name} | ${fix.summary.en} | ${offered} | ${released} | ${defaultSince(fix)} |`;
  });
  return ['| fix | what changes | offered since | release | default since |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
