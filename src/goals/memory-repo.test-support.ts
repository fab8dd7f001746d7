/** An in-memory GoalsRepository: the driver's tests, and a daemon without a store. Same CAS semantics as SQL. */
import type { Goal, GoalsRepository } from './types.ts';

export function createMemoryGoalsRepository(): GoalsRepository {
  const rows = new Map<string, Goal>();
  const clone = (g: Goal): Goal => structuredClone(g);
  return {
    async insert(goal) {
      for (const [id, g] of rows) if (g.sessionId === goal.sessionId) rows.delete(id);
      rows.set(goal.id, clone(goal));
    },
    async get(id) {
      const g = rows.get(id);
      return g ? clone(g) : undefined;
    },
    async getBySession(sessionId) {
      for (const g of rows.values()) if (g.sessionId === sessionId) return clone(g);
      return undefined;
    },
    async list(filter = {}) {
      return [...rows.values()]
        .filter((g) => !filter.status || g.status === filter.status)
        .sort((a, b) => (a.id < b.id ? 1 : -1))
        .slice(0, filter.limit ?? 200)
        .map(clone);
    },
    async update(goal, ifStatus) {
      const cur = rows.get(goal.id);
      if (!cur || (ifStatus !== undefined && cur.status !== ifStatus)) return false;
      rows.set(goal.id, clone(goal));
      return true;
    },
    async remove(id) {
      return rows.delete(id);
    },
  };
}
