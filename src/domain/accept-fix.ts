import { ChangelogError, type Changelog } from './changelog.js';
import type { IsoDate } from './iso-date.js';
import { fail, localized, pass, type Check, type Localized } from './localized.js';

export type AcceptFixName =
  'amount-as-string' | 'cardaccount-switch-originalamount-and-transactionamount' | 'longer-name' | 'cash-account-type-iso';

/**
 * A response change a TPP can opt into early with `accept-fix` / `x-accept-fix`. The bank announces
 * it in a release note and it becomes the default for everyone three months later (see
 * {@link defaultSince}); before that day only a TPP that sends the header gets it.
 *
 * What a fix is and how it is spelt is written here; when it came is not: the release that
 * announces it, the month it was first offered and any assumption about its date are the
 * changelog's (CHANGELOG.md, read by ./changelog.ts), and {@link acceptFixesOf} joins the two.
 */
export interface AcceptFixDefinition {
  readonly name: AcceptFixName;
  readonly aliases: readonly string[];
  readonly summary: Localized;
}

/** A fix with the dates of the release that announces it. */
export interface AcceptFix extends AcceptFixDefinition {
  /** The number of the release that announces it. */
  readonly release: string;
  /** YYYY-MM-DD of that release; the default day is three months later. */
  readonly releasedOn: IsoDate;
  /** YYYY-MM the header value was first accepted; undefined where the bank's page does not say. */
  readonly offeredSince: string | undefined;
  /** Why the release date is our assumption rather than the bank's word, when it is. */
  readonly assumption: string | undefined;
}

export const ACCEPT_FIX_DEFINITIONS: readonly AcceptFixDefinition[] = [
  {
    name: 'amount-as-string',
    aliases: [],
    summary: localized(
      'Amounts are JSON strings such as "100.33" (always so here; accepted and ignored).',
      'Beløp er JSON-strenger som "100.33" (alltid slik her; godtas og ignoreres).',
    ),
  },
  {
    name: 'cardaccount-switch-originalamount-and-transactionamount',
    aliases: [],
    summary: localized(
      'Card transactions: transactionAmount is the amount in the card currency and originalAmount what the merchant charged (without it the two are swapped, as the bank has always sent them).',
      'Korttransaksjoner: transactionAmount er beløpet i kortets valuta og originalAmount det brukerstedet belastet (uten den er de byttet om, slik banken alltid har sendt dem).',
    ),
  },
  {
    name: 'longer-name',
    aliases: ['longer-names'],
    summary: localized(
      'The name of an account or card account is returned with up to 70 characters instead of being cut at 35.',
      'Navnet på en konto eller kortkonto returneres med opptil 70 tegn i stedet for å kuttes ved 35.',
    ),
  },
  {
    name: 'cash-account-type-iso',
    aliases: [],
    summary: localized(
      "cashAccountType is the ISO 20022 ExternalCashAccountType1Code (CACC, SVGS, …) instead of the bank's product word (BRUKSKONTO, SPAREKONTO, …).",
      'cashAccountType er ISO 20022 ExternalCashAccountType1Code (CACC, SVGS, …) i stedet for bankens produktord (BRUKSKONTO, SPAREKONTO, …).',
    ),
  },
];

/**
 * Every fix with its dates from the changelog: the release that announces it gives `releasedOn`,
 * its note the month offered and any assumption. Throws when the two disagree in a way that
 * would leave a fix without a default day or with two: a fix no release announces, one announced
 * by an undated release, a value the changelog announces that the server does not know, or a
 * written default day that is not three months after the release.
 */
export function acceptFixesOf(changelog: Changelog): readonly AcceptFix[] {
  const announced = new Map(
    changelog.releases.flatMap((release) => release.acceptFixes.map((note) => [note.name, { release, note }] as const)),
  );
  for (const [name, { note }] of announced) {
    if (!ACCEPT_FIX_DEFINITIONS.some((fix) => fix.name === name)) {
      throw new ChangelogError(
        note.line,
        `accept-fix ${name} is not a value this server knows (${ACCEPT_FIX_DEFINITIONS.map((fix) => fix.name).join(', ')})`,
      );
    }
  }
  return ACCEPT_FIX_DEFINITIONS.map((definition) => {
    const entry = announced.get(definition.name);
    if (entry === undefined) throw new ChangelogError(undefined, `no release announces accept-fix ${definition.name}`);
    const { release, note } = entry;
    if (release.date === undefined) {
      throw new ChangelogError(
        note.line,
        `accept-fix ${definition.name} is announced by release ${release.number}, which has no date to count its three months from`,
      );
    }
    const fix: AcceptFix = {
      ...definition,
      release: release.number,
      releasedOn: release.date,
      offeredSince: note.offeredSince,
      assumption: note.assumption,
    };
    if (note.defaultFrom !== defaultSince(fix)) {
      throw new ChangelogError(
        note.line,
        `accept-fix ${definition.name}: default from ${note.defaultFrom}, but three months after release ${release.number} (${release.date}) is ${defaultSince(fix)}`,
      );
    }
    return fix;
  });
}

const BY_SPELLING = new Map<string, AcceptFixName>(
  ACCEPT_FIX_DEFINITIONS.flatMap((fix) => [fix.name, ...fix.aliases].map((spelling) => [spelling, fix.name] as const)),
);

/** {@link defaultSince} by release date. */
const DEFAULT_DAYS = new Map<string, IsoDate>();

/** The day (YYYY-MM-DD) a fix becomes the default: three months after its release. */
export function defaultSince(fix: Pick<AcceptFix, 'releasedOn'>): IsoDate {
  // Asked on every request that reads fixes: remembered per release date, of which there are few.
  let since = DEFAULT_DAYS.get(fix.releasedOn);
  if (since === undefined) {
    const [year = 0, month = 1, day = 1] = fix.releasedOn.split('-').map(Number);
    // Clamp to the target month's last day so 30 November does not roll over into March.
    const lastDay = new Date(Date.UTC(year, month + 2 + 1, 0)).getUTCDate();
    since = new Date(Date.UTC(year, month + 2, Math.min(day, lastDay))).toISOString().slice(0, 10);
    DEFAULT_DAYS.set(fix.releasedOn, since);
  }
  return since;
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
      const known = ACCEPT_FIX_DEFINITIONS.map((known) => known.name).join(', ');
      return fail(localized(`unknown fix "${shown}"; known fixes: ${known}`, `ukjent fiks "${shown}"; kjente fikser: ${known}`));
    }
    fixes.add(fix);
  }
  return pass(fixes);
}

/** The fixes in force for a request made on `today` (YYYY-MM-DD): those asked for and those now default. */
export function activeFixes(
  requested: ReadonlySet<AcceptFixName>,
  today: IsoDate,
  fixes: readonly AcceptFix[],
): ReadonlySet<AcceptFixName> {
  const active = new Set(requested);
  for (const fix of fixes) if (defaultSince(fix) <= today) active.add(fix.name);
  return active;
}

/**
 * The fixes as one Markdown table (name, what changes, offered since, release, default since):
 * the README shows it and the API docs (/docs) describe the header with it, from this one list.
 */
export function acceptFixTable(fixes: readonly AcceptFix[]): string {
  const rows = fixes.map((fix) => {
    const name = [fix.name, ...fix.aliases].map((spelling) => `\`${spelling}\``).join(' or ');
    const offered = fix.offeredSince ?? 'not published';
    const release = `${fix.release} of ${fix.releasedOn}`;
    const released = fix.assumption === undefined ? release : `${release} (assumed: ${fix.assumption})`;
    return `| ${name} | ${fix.summary.en} | ${offered} | ${released} | ${defaultSince(fix)} |`;
  });
  return ['| fix | what changes | offered since | release | default since |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
