import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the plain closing line `tests: N passed, N failed, N skipped` that CI tooling reads,
 * after vitest's own summary.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      let failedHere = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed without a failed test (it did not load, or a beforeAll threw and its
      // tests were skipped) counts as one failure, so the closing line never reads "0 failed" then.
      failed += testModule.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
