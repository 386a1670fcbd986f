// Packages that are one thing to an agent, shown as one result. A package has several keys (its leaf
// in its family, its pname and description, a release under its name: see build.ts); packages sharing
// any key are one group, transitively.

/** The groups of ids 0…n-1, where `keysOf(id)` lists an id's keys; ids keep their order within a group. */
export function groupByKeys(n: number, keysOf: (id: number) => readonly string[]): number[][] {
  const parent = Uint32Array.from({ length: n }, (_, id) => id);
  const root = (id: number): number => {
    while (parent[id] !== id) {
      parent[id] = parent[parent[id]!]!;
      id = parent[id]!;
    }
    return id;
  };
  const firstWithKey = new Map<string, number>();
  for (let id = 0; id < n; id++) {
    for (const key of keysOf(id)) {
      const first = firstWithKey.get(key);
      if (first === undefined) firstWithKey.set(key, id);
      else parent[root(id)] = root(first);
    }
  }
  const groups = new Map<number, number[]>();
  for (let id = 0; id < n; id++) {
    const members = groups.get(root(id));
    if (members) members.push(id);
    else groups.set(root(id), [id]);
  }
  return [...groups.values()];
}
