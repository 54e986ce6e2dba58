/**
 * How big a batch run's next chunk is (batch-runner.ts): twice the last while chunks are quick,
 * never above 2 000; fewer when the last chunk's pace fits fewer in half a second, never below
 * 50; unchanged after a chunk that did nothing.
 */
import { describe, expect, it } from 'vitest';
import { nextChunkSize } from '../../src/modules/execution/batch-runner.js';

describe('nextChunkSize', () => {
  it('doubles while chunks are quick, up to 2 000', () => {
    expect(nextChunkSize(250, 250, 20)).toBe(500);
    expect(nextChunkSize(1_500, 1_500, 100)).toBe(2_000);
    expect(nextChunkSize(2_000, 2_000, 100)).toBe(2_000);
  });

  it('shrinks to what fits in half a second at the last chunk’s pace, never below 50', () => {
    expect(nextChunkSize(1_000, 1_000, 1_000)).toBe(500);
    expect(nextChunkSize(250, 250, 250)).toBe(500);
    expect(nextChunkSize(250, 250, 10_000)).toBe(50);
  });

  it('keeps the size after a chunk that did nothing', () => {
    expect(nextChunkSize(500, 0, 3)).toBe(500);
  });
});
