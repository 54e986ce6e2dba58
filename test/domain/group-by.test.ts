import { describe, expect, it } from 'vitest';
import { groupBy } from '../../src/domain/group-by.js';

describe('groupBy', () => {
  it('keeps each group in the order given and the groups in the order their keys first appear', () => {
    const items = [
      { key: 'b', n: 1 },
      { key: 'a', n: 2 },
      { key: 'b', n: 3 },
      { key: 'c', n: 4 },
      { key: 'a', n: 5 },
    ];
    const groups = groupBy(items, (item) => item.key);
    expect([...groups.keys()]).toEqual(['b', 'a', 'c']);
    expect(groups.get('b')!.map((item) => item.n)).toEqual([1, 3]);
    expect(groups.get('a')!.map((item) => item.n)).toEqual([2, 5]);
    expect(groups.get('c')!.map((item) => item.n)).toEqual([4]);
  });

  it('groups by keys of any type and answers an empty map for no items', () => {
    expect(groupBy([1, 2, 3, 4], (n) => n % 2 === 0)).toEqual(
      new Map([
        [false, [1, 3]],
        [true, [2, 4]],
      ]),
    );
    expect(groupBy([], () => 'x').size).toBe(0);
  });
});
