/**
 * The items by key, each group in the order given, the groups in the order their keys first
 * appear. (`Map.groupBy` does this from Node 21; the server runs on Node 20 too.)
 */
export function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
