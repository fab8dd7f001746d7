/**
 * Keys → a new state and the effects to run (API calls, quit). Pure: the app performs the effects,
 * so every binding is testable without a terminal or a daemon. Destructive actions (end, clear a
 * goal, dismiss, answer by choice) go through a y/n confirmation.
 */
import { STATUSES } from '../core/session.ts';
import { HARNESSES } from '../harnesses/registry.ts';
import { hostChoices, pageRows, resolveSelection, rowIds, selectedPage, selectedSession } from './rows.ts';
import { flash } from './state.ts';
import { shortId } from './format.ts';
import type { ApiCall, Effect, Mode, TuiState } from './types.ts';
import { newSessionKeys, openNewSession } from './new-session.ts';
import { startSearch, transcriptKeys } from './transcript-search.ts';

/** One key press, normalised from readline's keypress event. */
export interface Key {
  /** readline's name: 'up', 'return', 'escape', 'tab', 'backspace', 'a'…; '' when none. */
  name: string;
  /** The printable character typed, if any (already shifted: 'A', '?', '/'). */
  ch: string | null;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
}

export interface KeyContext {
  now: number;
  /** Rows a page-up/down moves. */
  pageSize: number;
}

export interface KeyResult {
  state: TuiState;
  effects: Effect[];
}

const none = (state: TuiState): KeyResult => ({ state, effects: [] });
const withMode = (state: TuiState, mode: Mode): TuiState => ({ ...state, mode });

function move(state: TuiState, delta: number | 'first' | 'last'): TuiState {
  const ids = rowIds(state);
  if (ids.length === 0) return state;
  const { index } = resolveSelection(state, ids);
  const next = delta === 'first' ? 0 : delta === 'last' ? ids.length - 1 : Math.max(0, Math.min(ids.length - 1, index + delta));
  return { ...state, selected: { ...state.selected, [state.view]: ids[next]! }, selectedIndex: { ...state.selectedIndex, [state.view]: next } };
}

function cycle<T>(list: readonly T[], current: T | null): T | null {
  const i = current === null ? -1 : list.indexOf(current);
  return i + 1 >= list.length ? null : list[i + 1]!;
}

const call = (label: string, method: ApiCall['method'], path: string, body?: Record<string, unknown>): Effect => ({ kind: 'call', label, method, path, body });

function sessionKeys(state: TuiState, key: Key, ctx: KeyContext): KeyResult {
  const s = selectedSession(state);
  const need = (): KeyResult => none(flash(state, 'no session selected', 'error', ctx.now));
  const goal = s ? state.goals.get(s.id) : undefined;
  const goalRef = s ? encodeURIComponent(s.id) : '';
  switch (key.ch) {
    case 'f':
      if (!s) return need();
      return { state, effects: [call(`focus ${shortId(s.id)}`, 'POST', '/focus', { sessionId: s.id, via: 'cli' })] };
    case 'r':
      if (!s) return need();
      return { state, effects: [call(`resume ${shortId(s.id)}`, 'POST', '/resume', { sessionId: s.id, via: 'cli' })] };
    case 'x':
      if (!s) return need();
      if (!s.live) return none(flash(state, `${shortId(s.id)} is not running`, 'error', ctx.now));
      return none(withMode(state, { kind: 'confirm', prompt: `End ${s.harness} session "${s.title}" (${shortId(s.id)})?`, call: { label: `end ${shortId(s.id)}`, method: 'POST', path: '/end', body: { sessionId: s.id, via: 'cli' } } }));
    case 'm':
      if (!s) return need();
      return none(withMode(state, { kind: 'input', purpose: 'send', prompt: `${s.live ? 'Send to' : 'Resume with'} ${shortId(s.id)}: `, text: '', target: s.id }));
    case 's':
      if (!s) return need();
      return none(withMode(state, { kind: 'input', purpose: 'goal', prompt: `Goal for ${shortId(s.id)}: `, text: goal?.objective ?? '', target: s.id }));
    case 'p':
      if (!goal) return none(flash(state, 'no goal on this session (s sets one)', 'error', ctx.now));
      return { state, effects: [call(`pause goal of ${shortId(s!.id)}`, 'POST', `/goals/${goalRef}/pause`)] };
    case 'u':
      if (!goal) return none(flash(state, 'no goal on this session (s sets one)', 'error', ctx.now));
      return { state, effects: [call(`resume goal of ${shortId(s!.id)}`, 'POST', `/goals/${goalRef}/resume`)] };
    case 'c':
      if (!goal) return none(flash(state, 'no goal on this session', 'error', ctx.now));
      return none(withMode(state, { kind: 'confirm', prompt: `Clear the goal "${goal.objective}"?`, call: { label: `clear goal of ${shortId(s!.id)}`, method: 'DELETE', path: `/goals/${goalRef}` } }));
    case 't':
      return none({ ...state, filters: { ...state.filters, status: cycle(STATUSES, state.filters.status) } });
    case 'h':
      return none({ ...state, filters: { ...state.filters, harness: cycle(HARNESSES, state.filters.harness) } });
    case 'a':
      return none({ ...state, filters: { ...state.filters, allEnded: !state.filters.allEnded } });
    case 'o': {
      const hosts = hostChoices(state);
      if (hosts.length === 0) return none(flash(state, 'this host is not in a fleet (muster fleet join)', 'error', ctx.now));
      return none({ ...state, filters: { ...state.filters, host: cycle(hosts, state.filters.host) } });
    }
    case 'n':
      return openNewSession(state, ctx);
  }
  if (key.name === 'return' && s) return sessionKeys(state, { ...key, ch: s.live ? 'f' : 'r' }, ctx);
  return none(state);
}

function pageKeys(state: TuiState, key: Key, ctx: KeyContext): KeyResult {
  const p = selectedPage(state);
  if (!p) return none(state);
  const ref = encodeURIComponent(p.id);
  const open = p.status === 'pending';
  if (key.ch === 'd') {
    if (!open) return none(flash(state, `page is ${p.status}`, 'error', ctx.now));
    return none(withMode(state, { kind: 'confirm', prompt: 'Dismiss this page?', call: { label: 'dismiss page', method: 'POST', path: `/pages/${ref}/dismiss` } }));
  }
  if (key.ch === 'a' || key.name === 'return') {
    if (!open || p.kind !== 'question') return none(flash(state, p.kind === 'notice' ? 'a notice needs no answer (d dismisses it)' : `page is ${p.status}`, 'error', ctx.now));
    return none(withMode(state, { kind: 'input', purpose: 'answer', prompt: 'Answer: ', text: '', target: p.id }));
  }
  if (key.ch && /^[1-9]$/.test(key.ch) && p.choices) {
    const i = Number(key.ch) - 1;
    const choice = p.choices[i];
    if (choice === undefined || !open) return none(flash(state, open ? `no choice ${key.ch}` : `page is ${p.status}`, 'error', ctx.now));
    return none(withMode(state, { kind: 'confirm', prompt: `Answer "${choice}"?`, call: { label: 'answer', method: 'POST', path: `/pages/${ref}/answer`, body: { choice: i } } }));
  }
  return none(state);
}

function inputKeys(state: TuiState, mode: Extract<Mode, { kind: 'input' }>, key: Key, ctx: KeyContext): KeyResult {
  const setText = (text: string): TuiState => {
    const next = withMode(state, { ...mode, text });
    // Search filters as you type.
    return mode.purpose === 'search' ? { ...next, filters: { ...next.filters, text } } : next;
  };
  if (key.name === 'escape' || (key.ctrl && key.name === 'c')) {
    const back = withMode(state, { kind: 'normal' });
    return none(mode.purpose === 'search' ? { ...back, filters: { ...back.filters, text: '' } } : back);
  }
  if (key.name === 'backspace') return none(setText([...mode.text].slice(0, -1).join('')));
  if (key.ctrl && key.name === 'u') return none(setText(''));
  if (key.name === 'return' || key.name === 'enter') {
    const back = withMode(state, { kind: 'normal' });
    const text = mode.text.trim();
    if (mode.purpose === 'search') return none(back);
    if (mode.purpose === 'transcripts') return startSearch(back, text);
    if (!text || !mode.target) return none(flash(back, 'nothing sent (empty)', 'info', ctx.now));
    if (mode.purpose === 'answer') return { state: back, effects: [call('answer', 'POST', `/pages/${encodeURIComponent(mode.target)}/answer`, { text })] };
    const harness = state.sessions.get(mode.target)?.harness;
    if (mode.purpose === 'send') {
      if (!harness) return none(flash(back, 'that session is gone', 'error', ctx.now));
      return { state: back, effects: [call(`send to ${shortId(mode.target)}`, 'POST', `/sessions/${harness}/${encodeURIComponent(mode.target)}/send`, { text, via: 'cli' })] };
    }
    return { state: back, effects: [call(`set goal of ${shortId(mode.target)}`, 'POST', '/goals', { sessionId: mode.target, objective: text, ...(harness ? { harness } : {}) })] };
  }
  if (key.ch && !key.ctrl && !key.meta) return none(setText(mode.text + key.ch));
  return none(state);
}

export function handleKey(state: TuiState, key: Key, ctx: KeyContext): KeyResult {
  if (key.meta && key.ch) {
    // Escape and a key pressed in quick succession (see toKey): both, in order.
    const first = handleKey(state, { name: 'escape', ch: null, ctrl: false, meta: false, shift: false }, ctx);
    const second = handleKey(first.state, { ...key, name: key.ch, meta: false }, ctx);
    return { state: second.state, effects: [...first.effects, ...second.effects] };
  }
  const mode = state.mode;
  if (mode.kind === 'input') return inputKeys(state, mode, key, ctx);
  if (mode.kind === 'new') return newSessionKeys(state, mode, key, ctx);
  if (mode.kind === 'confirm') {
    const back = withMode(state, { kind: 'normal' });
    if (key.ch === 'y' || key.ch === 'Y') return { state: back, effects: [{ kind: 'call', ...mode.call }] };
    return none(flash(back, 'cancelled', 'info', ctx.now));
  }
  if (key.ctrl && key.name === 'c') return { state, effects: [{ kind: 'quit' }] };
  if (mode.kind === 'help') return none(withMode(state, { kind: 'normal' }));
  if (key.ctrl && key.name === 'z') return { state, effects: [{ kind: 'suspend' }] };
  if (key.ctrl && key.name === 'l') return { state, effects: [{ kind: 'redraw' }] };
  if (key.ctrl) return none(state);
  const searching = transcriptKeys(state, key, ctx.now);
  if (searching) return searching;
  switch (key.name) {
    case 'up': return none(move(state, -1));
    case 'down': return none(move(state, 1));
    case 'pageup': return none(move(state, -ctx.pageSize));
    case 'pagedown': return none(move(state, ctx.pageSize));
    case 'home': return none(move(state, 'first'));
    case 'end': return none(move(state, 'last'));
    case 'tab': return none({ ...state, view: state.view === 'sessions' ? 'pages' : 'sessions', flash: null });
    case 'escape': return none({ ...state, filters: { ...state.filters, text: '', status: null, harness: null, host: null }, flash: null });
  }
  switch (key.ch) {
    case 'q': return { state, effects: [{ kind: 'quit' }] };
    case '?': return none(withMode(state, { kind: 'help' }));
    case 'k': return none(move(state, -1));
    case 'j': return none(move(state, 1));
    case 'g': return none(move(state, 'first'));
    case 'G': return none(move(state, 'last'));
    case '/': return none(withMode(state, { kind: 'input', purpose: 'search', prompt: '/', text: state.filters.text, target: null }));
    case 'S': return none(withMode(state, { kind: 'input', purpose: 'transcripts', prompt: 'Search transcripts: ', text: state.transcripts?.query ?? '', target: null }));
  }
  return state.view === 'sessions' ? sessionKeys(state, key, ctx) : pageKeys(state, key, ctx);
}

/** Pending questions, for the header badge. */
export const pendingCount = (state: TuiState): number => pageRows({ ...state, filters: { ...state.filters, text: '' } }).filter((p) => p.status === 'pending').length;
