/**
 * Every harness Muster knows, in display order. Adding a harness is one folder beside this file and
 * one line here; the `Harness` type, the daemon's sources, the wrapper, the hooks service and
 * installer, goal runs, the auditors and the board's marks all follow from this list.
 */
import type { HarnessAdapter } from './adapter.ts';
import { claude } from './claude/index.ts';
import { codex } from './codex/index.ts';
import { opencode } from './opencode/index.ts';
import { pi } from './pi/index.ts';
import { omp } from './omp/index.ts';
import { copilot } from './copilot/index.ts';
import { gemini } from './gemini/index.ts';

export const ADAPTERS = [
  claude,
  codex,
  opencode,
  pi,
  omp,
  copilot,
  gemini,
] as const;

export type Harness = (typeof ADAPTERS)[number]['name'];

export const HARNESSES: readonly Harness[] = ADAPTERS.map((a) => a.name);

const byName = new Map<string, HarnessAdapter<Harness>>(ADAPTERS.map((a) => [a.name, a]));

export function isHarness(v: unknown): v is Harness {
  return typeof v === 'string' && byName.has(v);
}

/** The adapter of a known harness. */
export function adapterFor(harness: Harness): HarnessAdapter<Harness> {
  return byName.get(harness) as HarnessAdapter<Harness>;
}

/** True when `id` has a format some harness uses (the exact one is checked once the harness is known). */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && id.length <= 64 && ADAPTERS.some((a) => a.isValidId(id));
}

/** True when `id` has the exact session id format `harness` uses. */
export function isSessionIdFor(harness: Harness, id: string): boolean {
  return adapterFor(harness).isValidId(id);
}
