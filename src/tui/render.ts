/**
 * The whole frame, as exactly `rows` lines of exactly `columns` columns: a header (views, counts,
 * filters, connection), the current view's list, a detail pane, and a status line that shows the
 * open prompt, the last outcome, or the key hints. Pure: the same state and size give the same frame.
 */
import { createStyler, type Tone } from './ansi.ts';
import { composeLine, textLine, type Cell, type Style } from './line.ts';
import { pageRows, resolveSelection, selectedPage, selectedSession } from './rows.ts';
import { pageDetail, renderPageList } from './render-pages.ts';
import { renderSessionList, sessionDetail, sessionItems } from './render-sessions.ts';
import { pendingCount } from './keys.ts';
import { newPrompt } from './new-session.ts';
import type { TuiState } from './types.ts';
import { spendText } from './spend.ts';
import { renderHits } from './transcript-search.ts';

export interface FrameOptions {
  columns: number;
  rows: number;
  now: number;
  color: boolean;
}

export interface Frame {
  lines: string[];
  /** Scroll positions the frame settled on; the app stores them back into the state. */
  top: { sessions: number; pages: number };
}

/** A flash message stays this long on the status line, ms. */
export const FLASH_MS = 5000;

export const HELP: [string, string][] = [
  ['↑↓ j k', 'move'], ['PgUp PgDn g G', 'page, first, last'], ['Tab', 'sessions ⇄ pages inbox'],
  ['Enter', 'focus a live session / resume a dormant one'], ['f', 'focus the session\'s tmux/herdr pane'], ['r', 'resume (a new pane; live: focus)'],
  ['n', 'new session in its directory (Tab: harness; type the first prompt)'], ['x', 'end the session (asks first)'], ['m', 'send a message: its next prompt (dormant: resumed with it)'], ['s', 'set the goal (type the objective)'], ['p / u', 'pause / resume the goal'], ['c', 'clear the goal (asks first)'],
  ['/', 'filter the list'], ['S', 'search transcripts (Enter on a hit: its session)'], ['t', 'filter by status (cycles)'], ['h', 'filter by harness (cycles)'], ['a', 'all ended sessions / recent only'], ['o', 'filter by host (cycles; in a fleet)'], ['Esc', 'clear filters'],
  ['pages: a Enter', 'answer in free text'], ['pages: 1-9', 'answer with that choice'], ['pages: d', 'dismiss'],
  ['Ctrl-L', 'redraw'], ['Ctrl-Z', 'suspend'], ['? / q', 'this help / quit'],
];

function header(state: TuiState, columns: number, style: Style): string {
  const live = [...state.sessions.values()].filter((s) => s.live);
  const waiting = live.filter((s) => s.status === 'waiting' || s.status === 'stuck').length;
  const pending = pendingCount(state);
  const f = state.filters;
  const filters = [f.status && `status=${f.status}`, f.harness && `harness=${f.harness}`, f.host && `host=${f.host}`, f.text && `"${f.text}"`].filter(Boolean).join(' ');
  const conn: Cell = state.connection === 'live' ? { text: '● live', width: 7, tones: ['green'] } : { text: `○ ${state.connection}`, width: state.connection.length + 3, tones: ['yellow'] };
  const tab = (name: string, on: boolean): Cell => ({ text: ` ${name} `, width: name.length + 2, tones: on ? ['inverse', 'bold'] : ['dim'] });
  return composeLine([
    { text: ' muster ', width: 8, tones: ['bold'] },
    tab(`Sessions ${state.sessions.size}`, state.view === 'sessions'),
    tab(`Pages ${pending}`, state.view === 'pages'),
    { text: `  ${live.length} live · ${waiting} waiting${filters ? ` · filter ${filters}` : ''}`, tones: waiting > 0 ? ['yellow'] : [] },
    conn,
  ], columns, style);
}

function statusLine(state: TuiState, columns: number, now: number, style: Style): string {
  const m = state.mode;
  if (m.kind === 'input') return composeLine([{ text: m.prompt, width: Math.min(columns, m.prompt.length), tones: ['bold'] }, { text: `${m.text}█` }], columns, style);
  if (m.kind === 'confirm') return textLine(`${m.prompt} [y/N]`, columns, style, 'bold', 'yellow');
  if (m.kind === 'new') {
    const p = newPrompt(m);
    return composeLine([{ text: p, width: Math.min(columns, p.length), tones: ['bold'] }, { text: `${m.text}█` }], columns, style);
  }
  if (state.flash && now - state.flash.at < FLASH_MS) {
    const tones: Tone[] = state.flash.level === 'error' ? ['red', 'bold'] : ['green'];
    return textLine(state.flash.text, columns, style, ...tones);
  }
  const hints = state.view === 'sessions'
    ? '?:keys  Tab:pages  Enter/f:focus  r:resume  n:new  x:end  m:send  s/p/u/c:goal  /:filter  S:search transcripts  t/h:filter  q:quit'
    : '?:keys  Tab:sessions  a:answer  1-9:choice  d:dismiss  /:search  q:quit';
  // The cold index's figure and today's spend keep their place at the right; the hints give way first on a narrow terminal.
  const right = [state.indexing, state.spend ? spendText(state.spend) : null].filter((x): x is string => x !== null).join('  ');
  if (!right) return textLine(hints, columns, style, 'dim');
  return composeLine([{ text: hints, tones: ['dim'] }, { text: `  ${right}`, width: Math.min(columns, right.length + 2) }], columns, style);
}

function help(columns: number, height: number, style: Style): string[] {
  const lines = [textLine(' Keys (any key closes)', columns, style, 'bold')];
  const twoCols = columns >= 100 && HELP.length > height - 1;
  const perCol = twoCols ? Math.ceil(HELP.length / 2) : HELP.length;
  const colW = twoCols ? Math.floor(columns / 2) : columns;
  for (let i = 0; i < perCol; i++) {
    const cells = [HELP[i], twoCols ? HELP[i + perCol] : undefined].flatMap((e) => (e ? [{ text: `  ${e[0]}`, width: 18, tones: ['bold' as const] }, { text: e[1], width: colW - 18 }] : []));
    lines.push(composeLine(cells, columns, style));
  }
  return lines.slice(0, height);
}

export function renderFrame(state: TuiState, opts: FrameOptions): Frame {
  const { columns, rows, now } = opts;
  const style = createStyler(opts.color);
  const top = { ...state.top };
  const out: string[] = [header(state, columns, style)];
  const bodyRows = Math.max(0, rows - 2);
  if (state.mode.kind === 'help') out.push(...help(columns, bodyRows, style));
  else if (state.transcripts) out.push(...renderHits(state, bodyRows, columns, style));
  else {
    const detailRows = state.view === 'pages' ? Math.min(Math.max(4, Math.floor(bodyRows * 0.45)), 14) : rows >= 20 ? 5 : rows >= 12 ? 3 : 0;
    const listRows = Math.max(1, bodyRows - detailRows - (detailRows > 0 ? 1 : 0));
    if (state.view === 'sessions') {
      const items = sessionItems(state);
      const ids = items.flatMap((it) => (it.kind === 'session' ? [it.session.id] : []));
      const sel = resolveSelection(state, ids);
      const list = renderSessionList(state, items, sel.index, listRows, columns, now, style);
      top.sessions = list.top;
      out.push(...list.lines);
      if (detailRows > 0) out.push(textLine('─'.repeat(columns), columns, style, 'dim'), ...sessionDetail(state, selectedSession(state), detailRows, columns, now, style));
    } else {
      const pages = pageRows(state);
      const sel = resolveSelection(state, pages.map((p) => p.id));
      const list = renderPageList(state, pages, sel.index, listRows, columns, now, style);
      top.pages = list.top;
      out.push(...list.lines);
      if (detailRows > 0) out.push(textLine('─'.repeat(columns), columns, style, 'dim'), ...pageDetail(selectedPage(state), detailRows, columns, style));
    }
  }
  while (out.length < rows - 1) out.push(' '.repeat(columns));
  out.length = Math.max(0, rows - 1);
  out.push(statusLine(state, columns, now, style));
  return { lines: out.slice(0, rows), top };
}
