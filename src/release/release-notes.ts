import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { acceptFixesOf, type AcceptFix } from '../domain/accept-fix.js';
import { ChangelogError, currentRelease, parseChangelog, type Changelog } from '../domain/changelog.js';

/**
 * CHANGELOG.md at the package root. This file is src/release/release-notes.ts under tsx and
 * dist/release/release-notes.js when built, so the root is two levels up from both; the package
 * ships the file (package.json `files`).
 */
export const CHANGELOG_FILE = fileURLToPath(new URL('../../CHANGELOG.md', import.meta.url));

/** Reads and parses a changelog file; a file that breaks the rules is an error naming it and the line. */
export function readChangelog(file: string): Changelog {
  const text = readFileSync(file, 'utf8');
  return naming(file, () => parseChangelog(text));
}

/**
 * The release notes this server ships with, read once when it loads: a malformed changelog stops
 * the server at start, before it answers anything with a release it cannot state.
 */
export const RELEASE_NOTES: Changelog = readChangelog(CHANGELOG_FILE);

/** The interface release this server is: the newest entry of CHANGELOG.md. */
export const API_RELEASE: string = currentRelease(RELEASE_NOTES).number;

/** The accept-fix values with the release dates CHANGELOG.md gives them. */
export const ACCEPT_FIXES: readonly AcceptFix[] = naming(CHANGELOG_FILE, () => acceptFixesOf(RELEASE_NOTES));

/** Runs a reading of the changelog, its errors prefixed with the file they are about. */
function naming<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ChangelogError) throw new Error(`${file}: ${error.message}`, { cause: error });
    throw error;
  }
}
