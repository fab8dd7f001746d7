/**
 * `n`: a new session in the selected session's directory, of its harness (Tab cycles through the
 * others), with the typed text as its first prompt (empty: none). Enter asks the daemon
 * (POST /api/sessions/new); the new pane is not brought to the front, so the operator stays here
 * (`f` focuses it once listed). Worktrees, names and goals are for `muster new` and the board.
 */
import { HARNESSES } from '../harnesses/registry.ts';
import { selectedSession } from './rows.ts';
import { flash } from './state.ts';
import type { Effect, Mode, TuiState } from './types.ts';
import type { Key, KeyContext, KeyResult } from './keys.ts';

export type NewMode = Extract<Mode, { kind: 'new' }>;

/** The prompt line of the mode. */
export const newPrompt = (m: NewMode): string => `New ${m.harness} session in ${m.cwd} (Tab: harness, Enter: start) first prompt › `;

export function openNewSession(state: TuiState, ctx: KeyContext): KeyResult {
  const s = selectedSession(state);
  if (!s?.cwd) return { state: flash(state, 'select a session first: the new one starts in its directory (`muster new --cwd DIR` starts anywhere)', 'error', ctx.now), effects: [] };
  // Sessions start on this host: another host's directory may not exist here.
  if (s.hostId) return { state: flash(state, `that session runs on host "${s.host ?? s.hostId}": start one there (muster new)`, 'error', ctx.now), effects: [] };
  return { state: { ...state, mode: { kind: 'new', harness: s.harness, cwd: s.cwd, text: '' } }, effects: [] };
}

export function newSessionKeys(state: TuiState, mode: NewMode, key: Key, ctx: KeyContext): KeyResult {
  const set = (m: Partial<NewMode>): KeyResult => ({ state: { ...state, mode: { ...mode, ...m } }, effects: [] });
  const normal = { ...state, mode: { kind: 'normal' } as const };
  if (key.name === 'escape' || (key.ctrl && key.name === 'c')) return { state: flash(normal, 'cancelled', 'info', ctx.now), effects: [] };
  if (key.name === 'tab') return set({ harness: HARNESSES[(HARNESSES.indexOf(mode.harness) + 1) % HARNESSES.length] });
  if (key.name === 'backspace') return set({ text: [...mode.text].slice(0, -1).join('') });
  if (key.ctrl && key.name === 'u') return set({ text: '' });
  if (key.name === 'return' || key.name === 'enter') {
    const prompt = mode.text.trim() ? mode.text : undefined;
    const call: Effect = { kind: 'call', label: `start ${mode.harness} session`, method: 'POST', path: '/sessions/new', body: { harness: mode.harness, cwd: mode.cwd, ...(prompt ? { prompt } : {}) } };
    return { state: normal, effects: [call] };
  }
  if (key.ch && !key.ctrl && !key.meta) return set({ text: mode.text + key.ch });
  return { state, effects: [] };
}
