import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  ACCEPT_FIXES,
  acceptFixTable,
  activeFixes,
  checkAcceptFix,
  defaultSince,
  type AcceptFix,
  type AcceptFixName,
} from '../../src/domain/accept-fix.js';

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
    for (const fix of ACCEPT_FIXES) {
      expect(result.reason.en).toContain(fix.name);
      expect(result.reason.nb).toContain(fix.name);
    }
  });
});

describe('defaultSince', () => {
  it.each([
    // The days the bank's documentation gives (cash-account-type-iso: assumed, see the table).
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
    const fix: AcceptFix = { ...ACCEPT_FIXES[0]!, releasedOn };
    expect(defaultSince(fix)).toBe(expected);
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
    expect([...activeFixes(new Set(requested), today)].sort()).toEqual([...expected].sort());
  });

  it('does not change the requested set', () => {
    const requested = new Set<AcceptFixName>(['longer-name']);
    activeFixes(requested, '2030-01-01');
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
    const rows = cells(acceptFixTable());
    expect(rows[0]).toEqual(['fix', 'what changes', 'offered since', 'release', 'default since']);
    expect(rows.slice(1).map((row) => row[4])).toEqual(ACCEPT_FIXES.map(defaultSince));
    expect(rows[3]![0]).toBe('`longer-name` or `longer-names`');
  });

  it('is the table the README shows', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('| fix ');
    expect(start).toBeGreaterThan(0);
    const end = readme.indexOf('\n\n', start);
    expect(cells(readme.slice(start, end))).toEqual(cells(acceptFixTable()));
  });
});
