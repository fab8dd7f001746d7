/** The sessions view: group headers and one line per session (waiting ones add their reason). */
import type { Session } from '../core/session.ts';
import type { Goal } from '../goals/index.ts';
import type { Tone } from './ansi.ts';
import { cacheText, compactNumber, harnessMark, repoBranch, shortId, since, totalTokens } from './format.ts';
import { composeLine, textLine, type Cell, type Style } from './line.ts';
import { sessionGroups, type GroupName } from './rows.ts';
import { hostLabel, type TuiState } from './types.ts';

/** A line of the list before formatting: cheap to build for every session, formatted only when visible. */
export type ListItem =
  | { kind: 'group'; name: GroupName; count: number; hidden: number }
  | { kind: 'session'; session: Session; index: number }
  | { kind: 'reason'; session: Session; index: number };

export function sessionItems(state: TuiState): ListItem[] {
  const items: ListItem[] = [];
  let index = 0;
  for (const g of sessionGroups(state)) {
    items.push({ kind: 'group', name: g.name, count: g.sessions.length + g.hidden, hidden: g.hidden });
    for (const s of g.sessions) {
      items.push({ kind: 'session', session: s, index });
      if (g.name === 'waiting' && s.waitingFor) items.push({ kind: 'reason', session: s, index });
      index++;
    }
  }
  return items;
}

const STATUS_LOOK: Record<string, { label: string; tones: Tone[] }> = {
  waiting: { label: '◆ wait', tones: ['yellow', 'bold'] },
  stuck: { label: '◆ stuck', tones: ['red', 'bold'] },
  working: { label: '● work', tones: ['green'] },
  idle: { label: '○ idle', tones: ['cyan'] },
  ended: { label: '· ended', tones: ['dim'] },
};

/** A live session nothing reports on (Session.statusKnown false). */
const UNKNOWN_LOOK = { label: '◌ ?', tones: ['dim'] as Tone[] };

const GROUP_TITLE: Record<GroupName, string> = { waiting: 'WAITING', idle: 'IDLE', working: 'WORKING', ended: 'RECENTLY ENDED' };

export function goalLabel(goal: Goal | undefined, evaluating: boolean): { text: string; tones: Tone[] } {
  if (!goal) return { text: '', tones: [] };
  switch (goal.status) {
    case 'active': return { text: `goal ${goal.turns}/${goal.maxTurns}${evaluating ? '…' : ''}`, tones: ['magenta'] };
    case 'paused': return { text: 'goal paused', tones: ['dim'] };
    case 'complete': return { text: 'goal done', tones: ['green'] };
    default: return { text: `goal ${goal.status.replace('_', ' ')}`, tones: ['red'] };
  }
}

/** In a fleet (any record from another host), sessions and pages carry a host column. */
export const inFleet = (state: Pick<TuiState, 'sessions' | 'pages'>): boolean => [...state.sessions.values()].some((s) => s.hostId) || [...state.pages.values()].some((p) => p.hostId);

function sessionLine(state: TuiState, s: Session, selected: boolean, columns: number, now: number, style: Style, fleet: boolean): string {
  const look = s.live && s.statusKnown === false ? UNKNOWN_LOOK : (STATUS_LOOK[s.live ? s.status : 'ended'] ?? STATUS_LOOK.ended!);
  // Another host's session while that host is silent: its last known state, dimmed and marked.
  const away = s.hostReachable === false;
  const goal = goalLabel(state.goals.get(s.id), state.evaluating.has(s.id));
  const wide = columns >= 110;
  const flex = Math.max(10, columns - (2 + 8 + 6 + 4 + 7 + 14 + (wide ? 10 : 0) + (fleet ? 11 : 0)));
  const repoW = Math.min(40, Math.floor(flex * 0.4));
  const cells: Cell[] = [
    { text: selected ? '› ' : '  ', width: 2, tones: ['bold'] },
    { text: look.label, width: 8, tones: away ? ['dim'] : look.tones },
    ...(fleet ? [{ text: `${hostLabel(s)}${away ? '?' : ''}`, width: 11, tones: (away ? ['dim'] : ['cyan']) as Tone[] }] : []),
    { text: since(s.live ? s.statusSince : (s.lastActivityAt ?? s.statusSince), now), width: 6, tones: ['dim'] },
    { text: harnessMark(s.harness), width: 4 },
    ...(wide ? [{ text: shortId(s.id), width: 10, tones: ['dim'] as Tone[] }] : []),
    { text: s.title || '(untitled)' },
    { text: ` ${repoBranch(s)}`, width: repoW, tones: ['blue'] },
    { text: compactNumber(totalTokens(s)).padStart(6), width: 7, tones: ['dim'] },
    { text: ` ${goal.text}`, width: 14, tones: goal.tones },
  ];
  return composeLine(cells, columns, style, selected ? ['inverse'] : away ? ['dim'] : []);
}

/** Lines of the list body; `top` is adjusted so the selected session (and its reason) stays visible. */
export function renderSessionList(state: TuiState, items: ListItem[], selectedIndex: number, height: number, columns: number, now: number, style: Style): { lines: string[]; top: number } {
  const selLine = items.findIndex((it) => it.kind === 'session' && it.index === selectedIndex);
  const selEnd = items[selLine + 1]?.kind === 'reason' ? selLine + 1 : selLine;
  let top = Math.min(state.top.sessions, Math.max(0, items.length - height));
  if (selLine >= 0) {
    if (selEnd >= top + height) top = selEnd - height + 1;
    // Keep the group header above the first row of a group in view when possible.
    const want = items[selLine - 1]?.kind === 'group' ? selLine - 1 : selLine;
    if (want < top) top = want;
  }
  top = Math.max(0, top);
  const lines: string[] = [];
  const fleet = inFleet(state);
  for (let i = top; i < Math.min(items.length, top + height); i++) {
    const it = items[i]!;
    if (it.kind === 'group') {
      const more = it.hidden > 0 ? ` · ${it.hidden} older hidden (a: show all)` : '';
      lines.push(textLine(`── ${GROUP_TITLE[it.name]} (${it.count})${more} `, columns, style, 'bold'));
    } else if (it.kind === 'session') lines.push(sessionLine(state, it.session, it.index === selectedIndex, columns, now, style, fleet));
    else lines.push(composeLine([{ text: '', width: 16 }, { text: `↳ ${it.session.waitingFor ?? ''}`, tones: ['yellow'] }], columns, style));
  }
  if (items.length === 0) lines.push(textLine(state.sessions.size === 0 ? '  No sessions yet.' : '  No session matches the filter (Esc clears it).', columns, style, 'dim'));
  while (lines.length < height) lines.push(' '.repeat(columns));
  return { lines, top };
}

/** The detail pane under the list: everything about the selected session that the row had no room for. */
export function sessionDetail(state: TuiState, s: Session | undefined, height: number, columns: number, now: number, style: Style): string[] {
  const out: string[] = [];
  if (s) {
    const pane = s.pane ? `${s.pane.manager} ${s.pane.id}` : 'no pane';
    out.push(composeLine([{ text: `${s.harness} ${s.id}`, width: Math.min(50, columns), tones: ['bold'] }, { text: `  ${s.live ? `pid ${s.pid}` : 'dormant'} · ${pane} · ${s.model ?? 'model ?'} · ${s.costUsd === null ? '' : `$${s.costUsd.toFixed(2)} · `}last ${since(s.lastActivityAt, now)} ago` }], columns, style));
    if (s.hostId) {
      const note = s.hostReachable === false ? 'not heard from for 30 s or more: its last known state' : s.readOnly ? 'read-only: it takes no commands from other hosts' : 'focus works there only';
      out.push(textLine(`on host ${s.host ?? '?'} — ${note}`, columns, style, s.hostReachable === false ? 'yellow' : 'cyan'));
    }
    const cache = cacheText(s.cacheExpiresAt, now);
    const extra = [s.forkedFrom ? `forked from ${shortId(s.forkedFrom)}` : '', cache].filter(Boolean).map((t) => `  · ${t}`).join('');
    out.push(textLine(`${s.cwd ?? 'directory unknown'}${s.branch ? `  (${s.branch})` : ''}${extra}`, columns, style, 'dim'));
    const procs = s.live ? (s.processes ?? []) : [];
    if (procs.length > 1) {
      // A session open in several processes at once: each with its own status and pane, on one line.
      const each = procs.map((p) => `pid ${p.pid} ${p.status} (${p.pane ? `${p.pane.manager} ${p.pane.id}` : 'no pane'}${p.waitingFor ? `: ${p.waitingFor}` : ''})`);
      out.push(textLine(`${procs.length} processes: ${each.join(' · ')}`, columns, style, 'cyan'));
    }
    if (s.waitingFor) out.push(textLine(`waiting ${since(s.statusSince, now)} for: ${s.waitingFor}`, columns, style, 'yellow'));
    if (s.live && s.statusKnown === false) out.push(textLine('status unknown: live, but no hook reports what it is doing', columns, style, 'dim'));
    const g = state.goals.get(s.id);
    if (g) {
      const remaining = g.lastAudit?.verdict?.remaining ?? [];
      out.push(textLine(`goal (${g.status}${state.evaluating.has(s.id) ? ', auditing' : ''}, ${g.turns}/${g.maxTurns} turns, ${compactNumber(g.tokensUsed)} tok): ${g.objective}`, columns, style, 'magenta'));
      if (remaining.length) out.push(textLine(`  remaining: ${remaining.join('; ')}`, columns, style, 'dim'));
      else if (g.reason) out.push(textLine(`  ${g.reason}`, columns, style, 'dim'));
    }
  } else out.push(textLine('No session selected.', columns, style, 'dim'));
  return out.slice(0, height);
}
