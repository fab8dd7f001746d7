/** Goal ids: `gol_…`, time-sortable and unguessable (src/ids). */
import { newPrefixedId, prefixedIdPattern } from '../ids/index.ts';

const GOAL_ID = prefixedIdPattern('gol');

export function newGoalId(nowMs: number): string {
  return newPrefixedId('gol', nowMs);
}

export function isGoalId(id: unknown): id is string {
  return typeof id === 'string' && GOAL_ID.test(id);
}
