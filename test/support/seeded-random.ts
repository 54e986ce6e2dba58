/**
 * Small seeded generators of numbers in [0, 1) for tests that draw random cases: the same seed
 * gives the same sequence, so a failing case can be replayed from its seed.
 */

/** A linear congruential generator (Numerical Recipes' constants). */
export function linearCongruential(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** mulberry32: better spread in the low bits than {@link linearCongruential}. */
export function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
