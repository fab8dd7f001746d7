/**
 * Where characters stand on the canvas: a saved position wins; a session without one is placed
 * near its repo's group (beside the group's first placed member), and a new repo opens a new
 * column. Pure and deterministic, so the same sessions land on the same spots after a reload.
 */
import type { Position, Session } from '../types.ts';
import { keyOf } from '../types.ts';

export const GROUP_WIDTH = 460;
const STEP_X = 110;
const STEP_Y = 130;
const PER_ROW = 4;

export const groupOf = (s: Session): string => s.repoRoot ?? s.cwd ?? '(no directory)';

export interface Placement {
  positions: Map<string, Position>;
  /** One label per repo group, at its anchor. */
  groups: { name: string; at: Position }[];
}

export function placeSessions(sessions: Session[], saved: Record<string, Position>): Placement {
  const groups = new Map<string, Session[]>();
  for (const s of sessions) groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), s]);
  const positions = new Map<string, Position>();
  const labels: Placement['groups'] = [];
  let column = 0;
  for (const name of [...groups.keys()].sort()) {
    const members = (groups.get(name) ?? []).sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? '') || a.id.localeCompare(b.id));
    const placed = members.filter((s) => saved[keyOf(s)]);
    const first = placed[0] ? saved[keyOf(placed[0])] : undefined;
    // y 200: the group label above the first row must clear Excalidraw's toolbar.
    const anchor = first ?? { x: 120 + column++ * GROUP_WIDTH, y: 200 };
    labels.push({ name, at: { x: anchor.x - 40, y: anchor.y - 80 } });
    let slot = placed.length;
    for (const s of members) {
      const k = keyOf(s);
      const own = saved[k];
      if (own) positions.set(k, own);
      else {
        positions.set(k, { x: anchor.x + (slot % PER_ROW) * STEP_X, y: anchor.y + Math.floor(slot / PER_ROW) * STEP_Y });
        slot++;
      }
    }
  }
  return { positions, groups: labels };
}
