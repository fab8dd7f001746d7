/**
 * The harnesses the daemon knows (GET /api/harnesses), loaded once before the board first renders:
 * their marks and colours in the list and panel, their names in the filter and the characters dialog.
 * Until loaded (or if the request fails) a harness shows as its own name.
 */
import { api } from './api.ts';
import type { HarnessInfo } from '../../src/server/routes/harnesses.ts';
import type { Harness } from './types.ts';

let known: HarnessInfo[] = [];

export async function loadHarnesses(): Promise<void> {
  try {
    known = (await api<{ harnesses: HarnessInfo[] }>('GET', '/api/harnesses')).harnesses;
  } catch {
    // The board still works; marks fall back to names.
  }
}

/** The names the daemon announced; it only announces its registry's harnesses. */
export function harnessNames(): Harness[] {
  return known.map((h) => h.name as Harness);
}

/** "Claude Code, Codex or OpenCode": the harnesses' own names, for prose. */
export function harnessLabels(): string {
  const labels = known.map((h) => h.label);
  return labels.length <= 1 ? (labels[0] ?? 'a coding agent') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

export function harnessMark(name: string): { text: string; color: string | undefined } {
  const h = known.find((x) => x.name === name);
  return { text: h?.mark ?? name, color: h?.color };
}

/** The harnesses the New session form offers first: those the daemon can start here (all, when it did not say). */
export function startableHarnesses(): { name: Harness; label: string; startable: boolean }[] {
  return known.map((h) => ({ name: h.name as Harness, label: h.label, startable: h.startable !== false }));
}
