import { describe, expect, it } from 'vitest';
import { parseHttpDate } from '../../src/domain/http-date.js';

const NOW = new Date('2026-11-28T02:49:56Z');

function read(text: string): string {
  const date = parseHttpDate(text, NOW);
  return date.ok ? date.value.toISOString() : `refused: ${date.reason.en}`;
}

describe('HTTP-date (RFC 9110 §5.6.7)', () => {
  it.each([
    ['IMF-fixdate', 'Sat, 28 Nov 2026 02:49:56 GMT'],
    ['RFC 850', 'Saturday, 28-Nov-26 02:49:56 GMT'],
    ['asctime', 'Sat Nov 28 02:49:56 2026'],
    ['names in another case', 'SAT, 28 nov 2026 02:49:56 GMT'],
    ['surrounding spaces', '  Sat, 28 Nov 2026 02:49:56 GMT '],
  ])('reads %s', (_form, text) => {
    expect(read(text)).toBe('2026-11-28T02:49:56.000Z');
  });

  it('reads asctime with a space-padded day as GMT', () => {
    expect(read('Sun Nov  6 08:49:37 1994')).toBe('1994-11-06T08:49:37.000Z');
  });

  it("reads the forms RFC 5322 and Java's RFC_1123_DATE_TIME write: one-digit day, no weekday, no seconds", () => {
    expect(read('Tue, 3 Jun 2008 11:05:30 GMT')).toBe('2008-06-03T11:05:30.000Z');
    expect(read('03 Jun 2008 11:05:30 GMT')).toBe('2008-06-03T11:05:30.000Z');
    expect(read('Tue, 03 Jun 2008 11:05 GMT')).toBe('2008-06-03T11:05:00.000Z');
  });

  it('places a two-digit RFC 850 year more than 50 years ahead in the century before', () => {
    expect(read('Sunday, 06-Nov-94 08:49:37 GMT')).toBe('1994-11-06T08:49:37.000Z');
    expect(read('Wednesday, 01-Jan-70 00:00:00 GMT')).toBe('2070-01-01T00:00:00.000Z');
  });

  it.each([
    'Tue, 31 Feb 2026 10:00:00 GMT',
    'Tuesday, 31-Feb-26 10:00:00 GMT',
    'Tue Feb 31 10:00:00 2026',
    'Sun, 00 Nov 2026 10:00:00 GMT',
    'Sun, 29 Feb 2026 10:00:00 GMT',
  ])('refuses a day the month does not have in any form: %s', (text) => {
    expect(read(text)).toMatch(/^refused: Date names \d+ \w+ 2026, which is not a real date$/);
  });

  it('takes 29 February in a leap year', () => {
    expect(read('Thu, 29 Feb 2024 10:00:00 GMT')).toBe('2024-02-29T10:00:00.000Z');
  });

  it.each([
    'Sat, 28 Nov 2026 24:00:00 GMT',
    'Saturday, 28-Nov-26 10:60:00 GMT',
    'Sat Nov 28 10:00:61 2026',
    'Sat, 28 Nov 2026 10:00:60 GMT',
  ])('refuses a time that is not a time of day in any form: %s', (text) => {
    expect(read(text)).toMatch(/which is not a time of day$/);
  });

  it('reads a four-digit year below 100 as that year, not as 19xx, in its checks and its instant', () => {
    expect(read('Sat, 06 Nov 0094 08:49:37 GMT')).toBe('0094-11-06T08:49:37.000Z');
    expect(read('Sun, 06 Nov 0094 08:49:37 GMT')).toBe('refused: the weekday in Date does not match the date: 6 Nov 94 is a Saturday');
  });

  it('takes a leap second at 23:59:60 as the next second', () => {
    expect(read('Wed, 31 Dec 2025 23:59:60 GMT')).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each(['Mon, 28 Nov 2026 02:49:56 GMT', 'Monday, 28-Nov-26 02:49:56 GMT', 'Mon Nov 28 02:49:56 2026'])(
    'refuses a weekday that is not the date’s in any form: %s',
    (text) => {
      expect(read(text)).toBe('refused: the weekday in Date does not match the date: 28 Nov 2026 is a Saturday');
    },
  );

  it.each([
    'yesterday',
    '2026-11-28T02:49:56Z',
    'Sat, 28 Nov 2026 02:49:56 +0100',
    'Sat, 28 Nov 2026 02:49:56',
    'Sat Nov 28 02:49:56 2026 GMT',
    'Sax, 28 Nov 2026 02:49:56 GMT',
    'Sat, 28 Nox 2026 02:49:56 GMT',
    'Sat, 28-Nov-26 02:49:56 GMT',
  ])('refuses what is no HTTP-date, keeping the IMF-fixdate example: %s', (text) => {
    expect(read(text)).toBe('refused: Date must be an HTTP date such as "Mon, 02 Jun 2025 10:00:00 GMT"');
  });
});
