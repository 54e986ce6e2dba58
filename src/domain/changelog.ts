import { checkIsoDate, type IsoDate } from './iso-date.js';

/**
 * CHANGELOG.md read as data: the interface's releases, newest first, each with its number, its
 * date and the accept-fix values it announces. The server states the newest release as its own
 * (OpenAPI `info.version`, the `API-Release` header) and takes each accept-fix's release date from
 * here, so the changelog is the one place a release is written down.
 *
 * The rules are strict because a wrong changelog would silently change what the server says and
 * when a fix becomes the default: any line that looks like a release heading or an accept-fix
 * note but does not parse is an error naming its line, and so is a release out of order.
 *
 * The format:
 *
 * - Everything before the first `## ` line is the preamble, free text.
 * - `## 1.23.6 - 2026-11-25` starts a release: `major.minor.patch`, optionally a fourth component
 *   (`1.21.16.1`), then ` - ` and its date. The date may be left out (`## 1.0.0`): the bank's
 *   older releases have none. Numbers have no leading zeros.
 * - Releases are listed newest first: each number lower than the one above it; dates never later
 *   than the one above; an undated release only below every dated one.
 * - Within a release, a bullet starting `accept-fix` announces a value (the bullet may go on over
 *   indented lines below it):
 *   `` - accept-fix `longer-name` (offered since 2020-06; default from 2024-09-05): what changes ``
 *   `offered since YYYY-MM` may be left out (not published), `default from YYYY-MM-DD` is
 *   required, and `; assumed: why` may follow it when the release date is ours, not the bank's.
 *   A value is announced by one release only.
 * - Every other line (`###` headings, other bullets, prose) is the release's text, not read.
 */
export interface Changelog {
  /** Newest first; never empty. */
  readonly releases: readonly Release[];
}

export interface Release {
  /** As written: `1.23.6`, `1.21.16.1`. */
  readonly number: string;
  /** Undefined for an older release whose date is not known. */
  readonly date: IsoDate | undefined;
  readonly acceptFixes: readonly AcceptFixNote[];
  /** 1-based line of its heading, for messages. */
  readonly line: number;
}

/** An accept-fix value as a release announces it. */
export interface AcceptFixNote {
  readonly name: string;
  /** YYYY-MM the value was first accepted; undefined where not published. */
  readonly offeredSince: string | undefined;
  /** YYYY-MM-DD it becomes the default for everyone, as the release note says. */
  readonly defaultFrom: IsoDate;
  /** Why the release's date is our assumption for this value, when it is. */
  readonly assumption: string | undefined;
  readonly line: number;
}

/** A changelog that does not follow the rules above; the message names the line where there is one. */
export class ChangelogError extends Error {
  constructor(
    readonly line: number | undefined,
    problem: string,
  ) {
    super(line === undefined ? problem : `line ${line}: ${problem}`);
    this.name = 'ChangelogError';
  }
}

const RELEASE_HEADING = /^## (\S+)(?: - (\S+))?$/;
const RELEASE_NUMBER = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?$/;
const ACCEPT_FIX_BULLET = /^[-*+]\s*`?accept-fix\b/;
const ACCEPT_FIX_NOTE =
  /^- accept-fix `([a-z0-9]+(?:-[a-z0-9]+)*)` \((?:offered since ([0-9]{4}-[0-9]{2}); )?default from ([^;)]+)(?:; assumed: ([^()]+?))?\): \S/;
const MONTH = /^[0-9]{4}-(0[1-9]|1[0-2])$/;

export function parseChangelog(text: string): Changelog {
  const releases: Release[] = [];
  const announcedIn = new Map<string, Release>();
  let current: { release: Release; fixes: AcceptFixNote[] } | undefined;

  const lines = text.split(/\r?\n/);
  lines.forEach((content, index) => {
    const line = index + 1;
    if (content.startsWith('##') && !content.startsWith('###')) {
      const release = releaseHeading(content, line);
      const above = releases.at(-1);
      if (above !== undefined) checkOrder(above, release);
      const fixes: AcceptFixNote[] = [];
      const withFixes: Release = { ...release, acceptFixes: fixes };
      releases.push(withFixes);
      current = { release: withFixes, fixes };
      return;
    }
    if (!ACCEPT_FIX_BULLET.test(content)) return;
    if (current === undefined) throw new ChangelogError(line, 'an accept-fix note before the first release heading');
    const note = acceptFixNote(bulletText(lines, index), line);
    const earlier = announcedIn.get(note.name);
    if (earlier !== undefined) {
      throw new ChangelogError(line, `accept-fix ${note.name} is already announced by release ${earlier.number} (line ${earlier.line})`);
    }
    announcedIn.set(note.name, current.release);
    current.fixes.push(note);
  });

  if (releases.length === 0) throw new ChangelogError(undefined, 'no release heading (## major.minor.patch - YYYY-MM-DD)');
  return { releases };
}

/** The release the server is: the newest one. */
export function currentRelease(changelog: Changelog): Release {
  // parseChangelog never returns an empty list.
  return changelog.releases[0]!;
}

/** Negative when a is the older release, positive when it is the newer; a missing fourth component counts as 0. */
export function compareReleaseNumbers(a: string, b: string): number {
  const left = numberParts(a);
  const right = numberParts(b);
  for (let i = 0; i < 4; i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function numberParts(number: string): number[] {
  const match = RELEASE_NUMBER.exec(number);
  if (match === null) throw new Error(`not a release number: ${number}`);
  return match
    .slice(1)
    .filter((part) => part !== undefined)
    .map(Number);
}

function releaseHeading(content: string, line: number): Omit<Release, 'acceptFixes'> {
  const match = RELEASE_HEADING.exec(content);
  const [, number = '', date] = match ?? [];
  if (match === null || !RELEASE_NUMBER.test(number)) {
    throw new ChangelogError(line, `a release heading is "## major.minor.patch[.fourth] - YYYY-MM-DD", not ${JSON.stringify(content)}`);
  }
  if (date !== undefined && !checkIsoDate(date).ok) {
    throw new ChangelogError(line, `release ${number}: ${JSON.stringify(date)} is not a date YYYY-MM-DD`);
  }
  return { number, date, line };
}

function checkOrder(above: Release, release: Omit<Release, 'acceptFixes'>): void {
  if (compareReleaseNumbers(release.number, above.number) >= 0) {
    throw new ChangelogError(
      release.line,
      `release ${release.number} is listed below ${above.number} (line ${above.line}); releases go newest first, each number lower than the one above`,
    );
  }
  if (release.date === undefined) return;
  if (above.date === undefined) {
    throw new ChangelogError(
      release.line,
      `release ${release.number} has a date but the newer ${above.number} (line ${above.line}) has none`,
    );
  }
  if (release.date > above.date) {
    throw new ChangelogError(
      release.line,
      `release ${release.number} (${release.date}) is dated after the newer ${above.number} (${above.date}, line ${above.line})`,
    );
  }
}

/** A bullet with its continuation lines (the indented lines right below it), joined by single spaces. */
function bulletText(lines: readonly string[], index: number): string {
  const parts = [lines[index]!.trim()];
  for (let next = index + 1; next < lines.length && /^\s+\S/.test(lines[next]!); next += 1) parts.push(lines[next]!.trim());
  return parts.join(' ');
}

function acceptFixNote(content: string, line: number): AcceptFixNote {
  const match = ACCEPT_FIX_NOTE.exec(content);
  if (match === null) {
    throw new ChangelogError(
      line,
      'an accept-fix note is "- accept-fix `value` (offered since YYYY-MM; default from YYYY-MM-DD; assumed: why): what changes", ' +
        `with offered since and assumed optional, not ${JSON.stringify(content)}`,
    );
  }
  const [, name = '', offeredSince, defaultFrom = '', assumption] = match;
  if (offeredSince !== undefined && !MONTH.test(offeredSince)) {
    throw new ChangelogError(line, `accept-fix ${name}: offered since ${JSON.stringify(offeredSince)} is not a month YYYY-MM`);
  }
  if (!checkIsoDate(defaultFrom).ok) {
    throw new ChangelogError(line, `accept-fix ${name}: default from ${JSON.stringify(defaultFrom)} is not a date YYYY-MM-DD`);
  }
  if (assumption !== undefined && assumption.trim() === '') throw new ChangelogError(line, `accept-fix ${name}: "assumed:" says nothing`);
  return { name, offeredSince, defaultFrom, assumption: assumption?.trim(), line };
}
