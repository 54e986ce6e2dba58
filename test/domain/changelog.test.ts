import { describe, expect, it } from 'vitest';
import { ChangelogError, compareReleaseNumbers, currentRelease, parseChangelog } from '../../src/domain/changelog.js';

/** A changelog of the given lines, with a preamble as the real one has. */
function changelog(...lines: string[]): string {
  return ['# Changelog', '', 'Free text before the first release: ## is fine inside a line.', '', ...lines, ''].join('\n');
}

function problemOf(text: string): ChangelogError {
  try {
    parseChangelog(text);
  } catch (error) {
    if (error instanceof ChangelogError) return error;
    throw error;
  }
  throw new Error('parsed without complaint');
}

describe('parseChangelog: releases', () => {
  it('reads numbers and dates newest first; the newest is the current release', () => {
    const parsed = parseChangelog(
      changelog('## 1.23.6 - 2026-11-25', 'text', '### New operations', '- a line', '## 1.21.16.1 - 2025-01-02', '## 1.21.16'),
    );
    expect(parsed.releases.map((release) => [release.number, release.date])).toEqual([
      ['1.23.6', '2026-11-25'],
      ['1.21.16.1', '2025-01-02'],
      ['1.21.16', undefined],
    ]);
    expect(currentRelease(parsed).number).toBe('1.23.6');
    expect(parsed.releases[0]!.line).toBe(5);
  });

  it('accepts several releases on one day, each number lower than the one above', () => {
    const parsed = parseChangelog(changelog('## 1.4.0 - 2026-11-25', '## 1.3.1 - 2026-11-25', '## 1.3.0 - 2026-11-21'));
    expect(parsed.releases).toHaveLength(3);
  });

  it('reads a file with CRLF line ends', () => {
    expect(currentRelease(parseChangelog('## 2.0.0 - 2026-01-31\r\n\r\n## 1.0.0\r\n')).number).toBe('2.0.0');
  });

  it.each([
    ['## 1.2', 'three components at least'],
    ['## 1.2.3.4.5', 'four components at most'],
    ['## v1.2.3 - 2026-11-25', 'no v prefix'],
    ['## 1.02.3 - 2026-11-25', 'no leading zeros'],
    ['## 1.2.3 2026-11-25', 'the date after " - "'],
    ['## 1.2.3 – 2026-11-25', 'an en dash is not the separator'],
    ['## 1.2.3 - 25.11.2026', 'dates are YYYY-MM-DD'],
    ['## 1.2.3 - 2026-02-30', 'a day the calendar does not have'],
    ['## 1.2.3 - 2026-11-25 (current)', 'nothing after the date'],
    ['##1.2.3 - 2026-11-25', 'a space after ##'],
    ['## Unreleased', 'no section without a number'],
  ])('refuses the heading %j (%s), naming its line', (heading) => {
    const problem = problemOf(changelog('## 9.0.0 - 2026-12-01', 'text', heading));
    expect(problem.line).toBe(7);
    expect(problem.message).toMatch(/^line 7: /);
  });

  it.each([
    [['## 1.3.0 - 2026-11-21', '## 1.4.0 - 2026-11-25'], 'release 1.4.0 is listed below 1.3.0'],
    [['## 1.3.0 - 2026-11-21', '## 1.3.0 - 2026-11-20'], 'release 1.3.0 is listed below 1.3.0'],
    [['## 1.21.16 - 2024-01-01', '## 1.21.16.1 - 2023-01-01'], 'release 1.21.16.1 is listed below 1.21.16'],
    [['## 1.21.16.0 - 2024-01-01', '## 1.21.16 - 2023-01-01'], 'release 1.21.16 is listed below 1.21.16.0'],
    [['## 1.4.0 - 2026-11-21', '## 1.3.0 - 2026-11-25'], 'release 1.3.0 (2026-11-25) is dated after the newer 1.4.0'],
    [['## 1.4.0', '## 1.3.0 - 2026-11-25'], 'release 1.3.0 has a date but the newer 1.4.0'],
  ])('refuses releases out of order: %j', (headings, message) => {
    const problem = problemOf(changelog(...headings));
    expect(problem.line).toBe(6);
    expect(problem.message).toContain(message);
  });

  it('refuses a changelog without a release', () => {
    expect(problemOf(changelog('Nothing released yet.')).message).toContain('no release heading');
  });
});

describe('parseChangelog: accept-fix notes', () => {
  it('reads the value, the month offered, the default day and an assumption, over continuation lines', () => {
    const parsed = parseChangelog(
      changelog(
        '## 1.1.0 - 2024-06-05',
        '### accept-fix',
        '- accept-fix `longer-name` (offered since 2020-06; default from 2024-09-05): names up to',
        '  70 characters.',
        '- accept-fix `cash-account-type-iso` (default from',
        '  2024-09-05; assumed: the page is cut off, taken with the others): ISO codes.',
        '- Another change, not read.',
        '## 1.0.0 - 2020-05-01',
        '- accept-fix `amount-as-string` (offered since 2019-11; default from 2020-08-01): strings.',
      ),
    );
    expect(parsed.releases.map((release) => release.acceptFixes)).toEqual([
      [
        { name: 'longer-name', offeredSince: '2020-06', defaultFrom: '2024-09-05', assumption: undefined, line: 7 },
        {
          name: 'cash-account-type-iso',
          offeredSince: undefined,
          defaultFrom: '2024-09-05',
          assumption: 'the page is cut off, taken with the others',
          line: 9,
        },
      ],
      [{ name: 'amount-as-string', offeredSince: '2019-11', defaultFrom: '2020-08-01', assumption: undefined, line: 13 }],
    ]);
  });

  it.each([
    ['- accept-fix `longer-name`: names up to 70 characters', 'no dates'],
    ['- accept-fix `longer-name` (offered since 2020-06): names', 'no default day'],
    ['- accept-fix `longer-name` (default from 2024-09-05; offered since 2020-06): names', 'fields in another order'],
    ['- accept-fix `longer-name` (default from 2024-09-05)', 'no text of what changes'],
    ['- accept-fix longer-name (default from 2024-09-05): names', 'the value not in backticks'],
    ['- accept-fix `Longer-Name` (default from 2024-09-05): names', 'values are lower case'],
    ['- accept-fix: `longer-name` (default from 2024-09-05): names', 'a colon after accept-fix'],
    ['* `accept-fix` `longer-name` (default from 2024-09-05): names', 'another bullet shape'],
    ['- accept-fix `longer-name` (default from 2024-9-5): names', 'a day not YYYY-MM-DD'],
    ['- accept-fix `longer-name` (default from 2024-09-31): names', 'a day the calendar does not have'],
    ['- accept-fix `longer-name` (offered since 2020-13; default from 2024-09-05): names', 'a month that does not exist'],
    ['- accept-fix `longer-name` (default from 2024-09-05; assumed: ): names', 'no assumption'],
    ['- accept-fix `longer-name` (default from 2024-09-05; assumed:   ): names', 'an assumption of spaces'],
  ])('refuses %j (%s), naming its line', (note) => {
    const problem = problemOf(changelog('## 1.1.0 - 2024-06-05', '### accept-fix', note));
    expect(problem.line).toBe(7);
  });

  it('refuses a value announced by two releases', () => {
    const problem = problemOf(
      changelog(
        '## 1.1.0 - 2024-06-05',
        '- accept-fix `longer-name` (default from 2024-09-05): names.',
        '## 1.0.0 - 2020-05-01',
        '- accept-fix `longer-name` (default from 2020-08-01): names.',
      ),
    );
    expect(problem.line).toBe(8);
    expect(problem.message).toContain('already announced by release 1.1.0 (line 5)');
  });

  it('refuses a note before the first release', () => {
    const text = ['# Changelog', '- accept-fix `longer-name` (default from 2024-09-05): names.', '## 1.0.0 - 2024-06-05'].join('\n');
    expect(problemOf(text).line).toBe(2);
  });

  it('leaves prose that names the header alone', () => {
    const parsed = parseChangelog(changelog('## 1.0.0 - 2024-06-05', '- The `accept-fix` header is also read as `x-accept-fix`.'));
    expect(parsed.releases[0]!.acceptFixes).toEqual([]);
  });
});

describe('compareReleaseNumbers', () => {
  it.each([
    ['1.23.6', '1.21.16.1', 1],
    ['1.21.16.1', '1.21.16', 1],
    ['1.21.16', '1.21.16.0', 0],
    ['1.9.0', '1.10.0', -1],
    ['2.0.0', '1.99.99.99', 1],
  ])('%s against %s', (a, b, sign) => {
    expect(Math.sign(compareReleaseNumbers(a, b))).toBe(sign);
  });
});
