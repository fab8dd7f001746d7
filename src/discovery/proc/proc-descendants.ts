import type { DescendantsFn } from './types.ts';

/**
 * Breadth-first over `table.children`. A pid is visited at most once, so a cycle (possible in a
 * snapshot taken while pids are reused) cannot loop; `pid` itself is never in the result.
 */
export const descendants: DescendantsFn = (table, pid) => {
  const seen = new Set<number>([pid]);
  const out: number[] = [];
  const queue = [pid];
  for (let i = 0; i < queue.length; i++) {
    for (const child of table.children.get(queue[i] as number) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
};
