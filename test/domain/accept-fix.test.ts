import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  ACCEPT_FIX_DEFINITIONS,
  acceptFixesOf,
  acceptFixTable,
  activeFixes,
  checkAcceptFix,
  defaultSince,
  type AcceptFixName,
} from '../../src/domain/accept-fix.js';
import { ChangelogError, parseChangelog } from '../../src/domain/changelog.js';
import { ACCEPT_FIXES } from '../../src/release/release-notes.js';

const CARD = 'cardaccount-switch-originalamount-and-transactionamount';

describe('checkAcceptFix', () => {
  it.each<[string, AcceptFixName[]]>([
    ['longer-name', ['longer-name']],
    ['longer-names', ['longer-name']], // alias
    ['LONGER-NAME', ['longer-name']],
    ['longer-name,cash-account-type-iso', ['longer-name', 'cash-account-type-iso']],
    [' longer-name , cash-account-type-iso ', ['longer-name', 'cash-account-type-iso']],
    ['"longer-name, cash-account-type-iso"', ['longer-name', 'cash-account-type-iso']],
    ['"longer-name", "cash-account-type-iso"', ['longer-name', 'cash-account-type-iso']],
    ['longer-name,,, longer-names', ['longer-name']], // empty items ignored, duplicates merged
    [`amount-as-string, ${CARD}`, ['amount-as-string', CARD]],
    ['', []],
    [' , ', []],
    ['""', []],
    ['"longer-name"', ['longer-name']],
  ])('reads %j', (value, expected) => {
    const result = checkAcceptFix(value);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([...result.value].sort()).toEqual([...expected].sort());
  });

  it.each([
    ['longer-nam', '"longer-nam"'],
    ['longer-name, shorter-name', '"shorter-name"'],
    ['"cash-account-type"', '"cash-account-type"'],
    ['longer-name;cash-account-type-iso', '"longer-name;cash-account-type-iso"'],
    ['"longer-name', '""longer-name"'], // an unbalanced quote is not tolerated
    ['x'.repeat(80), `"${'x'.repeat(60)}…"`], // long values are cut in the message
  ])('refuses %j, naming %s', (value, shown) => {
    const result = checkAcceptFix(value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(`unknown fix ${shown}`);
    expect(result.reason.nb).toContain(`ukjent fiks ${shown}`);
    for (const fix of ACCEPT_FIX_DEFINITIONS) {
      expect(result.reason.en).toContain(fix.name);
      expect(result.reason.nb).toContain(fix.name);
    }
  });
});

describe('defaultSince', () => {
  it.each([
    // The days the bank's documentation gives (cash-account-type-iso: assumed, see the table),
    // reached from the release dates CHANGELOG.md gives.
    ['amount-as-string', '2020-08-01'],
    [CARD, '2024-09-05'],
    ['longer-name', '2024-09-05'],
    ['cash-account-type-iso', '2024-09-05'],
  ])('%s is the default from %s', (name, expected) => {
    const fix = ACCEPT_FIXES.find((known) => known.name === name);
    expect(fix).toBeDefined();
    expect(defaultSince(fix!)).toBe(expected);
  });

  it.each([
    ['2020-11-30', '2021-02-28'], // clamped to the end of February
    ['2019-11-30', '2020-02-29'], // leap year
    ['2020-10-15', '2021-01-15'], // crosses the year
    ['2020-05-31', '2020-08-31'],
  ])('adds three months to %s giving %s', (releasedOn, expected) => {
    expect(defaultSince({ releasedOn })).toBe(expected);
  });
});

describe('activeFixes', () => {
  const ACCOUNT_FIXES: AcceptFixName[] = [CARD, 'longer-name', 'cash-account-type-iso'];
  it.each<[string, AcceptFixName[], AcceptFixName[]]>([
    ['2020-07-31', [], []],
    ['2020-08-01', [], ['amount-as-string']],
    ['2024-09-04', [], ['amount-as-string']],
    ['2024-09-04', ['longer-name'], ['amount-as-string', 'longer-name']],
    ['2024-09-05', [], ['amount-as-string', ...ACCOUNT_FIXES]],
    ['2026-11-25', ['cash-account-type-iso'], ['amount-as-string', ...ACCOUNT_FIXES]],
  ])('on %s with %j asked for: %j', (today, requested, expected) => {
    expect([...activeFixes(new Set(requested), today, ACCEPT_FIXES)].sort()).toEqual([...expected].sort());
  });

  it('does not change the requested set', () => {
    const requested = new Set<AcceptFixName>(['longer-name']);
    activeFixes(requested, '2030-01-01', ACCEPT_FIXES);
    expect([...requested]).toEqual(['longer-name']);
  });
});

/** A Markdown table's rows as trimmed cells, whatever its column padding. */
function cells(table: string): string[][] {
  return table
    .trim()
    .split('\n')
    .filter((row) => !/^\|[\s|:-]+\|$/.test(row.trim()))
    .map((row) =>
      row
        .trim()
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

describe('acceptFixTable', () => {
  it('has one row per fix: spellings, what changes, offered since, release, default since', () => {
    const rows = cells(acceptFixTable(ACCEPT_FIXES));
    expect(rows[0]).toEqual(['fix', 'what changes', 'offered since', 'release', 'default since']);
    expect(rows.slice(1).map((row) => row[4])).toEqual(ACCEPT_FIXES.map(defaultSince));
    expect(rows[3]![0]).toBe('`longer-name` or `longer-names`');
    expect(rows[3]![3]).toBe(`${ACCEPT_FIXES[2]!.release} of ${ACCEPT_FIXES[2]!.releasedOn}`);
    expect(rows[4]![2]).toBe('not published');
    expect(rows[4]![3]).toMatch(/^\S+ of \S+ \(assumed: .+\)$/);
  });

  it('is the table the README shows', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('| fix ');
    expect(start).toBeGreaterThan(0);
    const end = readme.indexOf('\n\n', start);
    expect(cells(readme.slice(start, end))).toEqual(cells(acceptFixTable(ACCEPT_FIXES)));
  });
});

/** A changelog announcing every fix the server knows, in the releases given, with the default days their dates imply. */
function changelogOf(releases: readonly { heading: string; notes: string[] }[]): string {
  return ['# Changelog', '', ...releases.flatMap(({ heading, notes }) => [heading, '', ...notes, ''])].join('\n');
}

const EVERY_FIX_IN_TWO_RELEASES = [
  {
    heading: '## 2.1.0 - 2025-11-30',
    notes: [
      `- accept-fix \`${CARD}\` (offered since 2025-01; default from 2026-02-28): card amounts.`,
      '- accept-fix `longer-name` (default from 2026-02-28): longer names.',
      '- accept-fix `cash-account-type-iso` (default from 2026-02-28; assumed: our reading): ISO codes.',
    ],
  },
  {
    heading: '## 2.0.0.1 - 2025-10-15',
    notes: ['- accept-fix `amount-as-string` (offered since 2025-09; default from 2026-01-15): strings.'],
  },
];

describe('acceptFixesOf', () => {
  it("takes each fix's release, date, month offered and assumption from the release that announces it", () => {
    const fixes = acceptFixesOf(parseChangelog(changelogOf(EVERY_FIX_IN_TWO_RELEASES)));
    expect(fixes.map((fix) => [fix.name, fix.release, fix.releasedOn, fix.offeredSince, fix.assumption, defaultSince(fix)])).toEqual([
      ['amount-as-string', '2.0.0.1', '2025-10-15', '2025-09', undefined, '2026-01-15'],
      [CARD, '2.1.0', '2025-11-30', '2025-01', undefined, '2026-02-28'],
      ['longer-name', '2.1.0', '2025-11-30', undefined, undefined, '2026-02-28'],
      ['cash-account-type-iso', '2.1.0', '2025-11-30', undefined, 'our reading', '2026-02-28'],
    ]);
    // What a fix is stays the server's: its spellings and texts.
    expect(fixes.map((fix) => fix.aliases)).toEqual(ACCEPT_FIX_DEFINITIONS.map((fix) => fix.aliases));
  });

  it('moves a default day when the changelog moves a release', () => {
    const moved = EVERY_FIX_IN_TWO_RELEASES.map((release) =>
      release.heading.startsWith('## 2.0.0.1')
        ? { heading: '## 2.0.0.1 - 2025-10-20', notes: release.notes.map((note) => note.replace('2026-01-15', '2026-01-20')) }
        : release,
    );
    const fixes = acceptFixesOf(parseChangelog(changelogOf(moved)));
    expect([...activeFixes(new Set(), '2026-01-19', fixes)]).toEqual([]);
    expect([...activeFixes(new Set(), '2026-01-20', fixes)]).toEqual(['amount-as-string']);
  });

  it('refuses a written default day that is not three months after the release, naming the line', () => {
    const wrong = changelogOf(EVERY_FIX_IN_TWO_RELEASES).replace('default from 2026-01-15', 'default from 2026-01-16');
    expect(() => acceptFixesOf(parseChangelog(wrong))).toThrow(
      new ChangelogError(
        11,
        'accept-fix amount-as-string: default from 2026-01-16, but three months after release 2.0.0.1 (2025-10-15) is 2026-01-15',
      ),
    );
  });

  it('refuses a fix no release announces', () => {
    const without = changelogOf(EVERY_FIX_IN_TWO_RELEASES.slice(0, 1));
    expect(() => acceptFixesOf(parseChangelog(without))).toThrow('no release announces accept-fix amount-as-string');
  });

  it('refuses a fix announced by a release without a date', () => {
    const undated = changelogOf([EVERY_FIX_IN_TWO_RELEASES[0]!, { ...EVERY_FIX_IN_TWO_RELEASES[1]!, heading: '## 2.0.0.1' }]);
    expect(() => acceptFixesOf(parseChangelog(undated))).toThrow('announced by release 2.0.0.1, which has no date');
  });

  it('refuses a value the server does not know', () => {
    const unknown = changelogOf([
      {
        ...EVERY_FIX_IN_TWO_RELEASES[0]!,
        notes: [...EVERY_FIX_IN_TWO_RELEASES[0]!.notes, '- accept-fix `shorter-name` (default from 2026-02-28): x.'],
      },
      EVERY_FIX_IN_TWO_RELEASES[1]!,
    ]);
    expect(() => acceptFixesOf(parseChangelog(unknown))).toThrow('accept-fix shorter-name is not a value this server knows');
  });
});
