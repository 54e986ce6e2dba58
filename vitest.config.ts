import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Five tiers, each runnable alone (`npm run test:unit`, `test:api`, `test:browser`,
 * `test:process`, `test:docs`); `vitest run` runs them all. Unit is the fast one: pure rules and the store
 * tests (`*.db.test.ts`, on SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set). API tests
 * start the real server in-process and sign every request; browser tests drive Chromium;
 * process tests start the built CLI as child processes (servers killed mid-run included); docs
 * tests run the README's examples against a started server.
 */
const API = 'test/**/*.api.test.ts';
const BROWSER = 'test/**/*.browser.test.ts';
const PROCESS = ['test/**/*.process.test.ts', 'test/cli/**/*.test.ts'];
const DOCS = 'test/**/*.docs.test.ts';

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    // vitest's default, cores - 1 files at a time, but at least two: one on a 2-core machine left
    // a core idle while a file waits on its servers and child processes. On PostgreSQL each file
    // works in a schema of its own, which the migrations and their look at the catalogue keep to
    // (src/db/schema-introspector.ts), so a file dropping its schema disturbs no other.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    allowOnly: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      // Unit and API files share their worker's loaded modules (no isolation): each file imported
      // the server's modules afresh, which took a third of these tiers' time (on 2 cores, API 312 s
      // to 215 s, unit 62 s to 35 s). Their files keep no state between them: each starts its own
      // servers and databases, and a file that fakes timers gives them back in its after-hook.
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [API, BROWSER, ...PROCESS, DOCS], isolate: false },
      },
      { extends: true, test: { name: 'api', include: [API], isolate: false } },
      // Without Chromium (and outside CI) the browser tests are skipped; the set-up says what to install.
      { extends: true, test: { name: 'browser', include: [BROWSER], globalSetup: ['./test/support/browser-tier.setup.ts'] } },
      // These two start the built CLI: dist/ is built (when older than src/) before their files run.
      { extends: true, test: { name: 'process', include: PROCESS, globalSetup: ['./test/support/build.setup.ts'] } },
      { extends: true, test: { name: 'docs', include: [DOCS], globalSetup: ['./test/support/build.setup.ts'] } },
    ],
  },
});
