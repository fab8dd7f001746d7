/** The pages inbox: one line per page (pending first) and a reading pane with the whole question. */
import type { Page } from '../pager/index.ts';
import type { Tone } from './ansi.ts';
import { wrap } from './ansi.ts';
import { harnessMark, shortId, since } from './format.ts';
import { composeLine, textLine, type Style } from './line.ts';
import { hostLabel, type TuiState } from './types.ts';

const STATUS_TONES: Record<string, Tone[]> = { pending: ['yellow', 'bold'], answered: ['green'], delivered: ['green'], expired: ['dim'], cancelled: ['dim'], dismissed: ['dim'] };

export function renderPageList(state: TuiState, pages: Page[], selectedIndex: number, height: number, columns: number, now: number, style: Style): { lines: string[]; top: number } {
  let top = Math.min(state.top.pages, Math.max(0, pages.length - height));
  if (selectedIndex >= top + height) top = selectedIndex - height + 1;
  if (selectedIndex < top) top = selectedIndex;
  top = Math.max(0, top);
  const lines: string[] = [];
  const fleet = pages.some((p) => p.hostId);
  for (let i = top; i < Math.min(pages.length, top + height); i++) {
    const p = pages[i]!;
    const selected = i === selectedIndex;
    const session = p.sessionId ? state.sessions.get(p.sessionId) : undefined;
    const who = session?.title || (p.sessionId ? shortId(p.sessionId) : 'unattributed');
    lines.push(composeLine([
      { text: selected ? '› ' : '  ', width: 2, tones: ['bold'] },
      { text: p.status, width: 10, tones: STATUS_TONES[p.status] ?? [] },
      { text: since(p.createdAt, now), width: 6, tones: ['dim'] },
      { text: p.kind === 'question' ? '?' : '!', width: 2, tones: p.urgency === 'high' ? ['red', 'bold'] : [] },
      { text: p.harness ? harnessMark(p.harness) : '—', width: 4 },
      ...(fleet ? [{ text: hostLabel(p), width: 11, tones: ['cyan'] as Tone[] }] : []),
      { text: who, width: Math.min(24, Math.floor(columns / 4)), tones: ['blue'] },
      { text: ` ${p.question}` },
    ], columns, style, selected ? ['inverse'] : []));
  }
  if (pages.length === 0) lines.push(textLine('  No pages. Agents page you with the ask_operator and notify_operator MCP tools.', columns, style, 'dim'));
  while (lines.length < height) lines.push(' '.repeat(columns));
  return { lines, top };
}

/** The reading pane: the question wrapped in full, its context, the numbered choices and the answer. */
export function pageDetail(p: Page | undefined, height: number, columns: number, style: Style): string[] {
  if (!p) return [textLine('No page selected.', columns, style, 'dim')];
  const out: string[] = [];
  const head = `${p.kind} ${p.id} · ${p.urgency}${p.level ? ` · ${p.level}` : ''}${p.sessionId ? ` · session ${p.sessionId}` : p.attribution?.note ? ` · ${p.attribution.note}` : ''}`;
  out.push(textLine(head, columns, style, 'bold'));
  for (const l of wrap(p.question, columns)) out.push(textLine(l, columns, style));
  if (p.context) for (const l of wrap(`context: ${p.context}`, columns)) out.push(textLine(l, columns, style, 'dim'));
  if (p.choices?.length) {
    out.push(textLine(p.choices.map((c, i) => `${i + 1}) ${c}`).join('   '), columns, style, 'cyan'));
  }
  if (p.answer) out.push(textLine(`answered: ${p.answer.text}`, columns, style, 'green'));
  const hint = p.status !== 'pending' ? '' : p.kind === 'question' ? (p.choices?.length ? `1-${Math.min(9, p.choices.length)}: pick · a/Enter: type an answer · d: dismiss` : 'a/Enter: answer · d: dismiss') : 'd: dismiss';
  // The key hint always shows: it replaces the last line when the question is longer than the pane.
  if (hint) {
    const body = out.slice(0, Math.max(0, height - 1));
    return [...body, textLine(hint, columns, style, 'dim')];
  }
  return out.slice(0, height);
}
