import { createHash } from 'node:crypto';

/** A small deterministic random source: the same seed always gives the same sequence. */
export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` decimal digits. */
  digits(count: number): string;
}

/**
 * Mulberry32 seeded from the SHA-256 of a text, so sandbox data (seeded balances, data-fill
 * transactions) is reproducible from a seed a TPP can read and repeat. Not for secrets.
 */
export function seededRandom(seed: string): Random {
  let state = createHash('sha256').update(seed).digest().readUInt32BE(0);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new Error('pick() from an empty list');
      return item;
    },
    digits: (count) => Array.from({ length: count }, () => String(int(0, 9))).join(''),
  };
}
