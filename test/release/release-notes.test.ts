import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangelogError } from '../../src/domain/changelog.js';
import { ACCEPT_FIXES, API_RELEASE, CHANGELOG_FILE, readChangelog, RELEASE_NOTES } from '../../src/release/release-notes.js';

const scratch = mkdtempSync(join(tmpdir(), 'xs2a-changelog-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function fileWith(text: string): string {
  const file = join(scratch, `CHANGELOG-${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(file, text);
  return file;
}

describe('release notes', () => {
  it('are read from CHANGELOG.md at the package root (here, under tsx, from src/)', () => {
    expect(CHANGELOG_FILE).toBe(fileURLToPath(new URL('../../CHANGELOG.md', import.meta.url)));
  });

  it("state the newest release as the server's, and date every accept-fix from a release", () => {
    expect(API_RELEASE).toBe(RELEASE_NOTES.releases[0]!.number);
    for (const fix of ACCEPT_FIXES) {
      const release = RELEASE_NOTES.releases.find((each) => each.number === fix.release);
      expect(release?.date, fix.name).toBe(fix.releasedOn);
      expect(release?.acceptFixes.map((note) => note.name)).toContain(fix.name);
    }
  });

  it('refuse a malformed file, naming the file and the line', () => {
    const file = fileWith('# Changelog\n\n## 1.4.0 - 2026-11-25\n\n## 1.3 - 2026-11-21\n');
    expect(() => readChangelog(file)).toThrow(`${file}: line 5: a release heading is`);
    try {
      readChangelog(file);
    } catch (error) {
      expect((error as Error).cause).toBeInstanceOf(ChangelogError);
    }
  });

  it('refuse releases out of order, naming the file and the line', () => {
    const file = fileWith('# Changelog\n\n## 1.3.0 - 2026-11-21\n\n## 1.4.0 - 2026-11-25\n');
    expect(() => readChangelog(file)).toThrow(`${file}: line 5: release 1.4.0 is listed below 1.3.0`);
  });

  it('read a well-formed file', () => {
    const file = fileWith('# Changelog\n\n## 1.21.16.1 - 2025-03-01\n\n## 1.21.16\n');
    expect(readChangelog(file).releases.map((release) => release.number)).toEqual(['1.21.16.1', '1.21.16']);
  });
});
