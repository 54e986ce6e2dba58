import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Reads a file of test/fixtures (see test/fixtures/SOURCES.md for where each comes from). */
export function fixture(path: string): string {
  return readFileSync(fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url)), 'utf8');
}

export function fixtureJson<T>(path: string): T {
  return JSON.parse(fixture(path)) as T;
}
