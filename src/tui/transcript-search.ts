/**
 * Transcript search in the TUI: `S` asks for a query (the search syntax of `muster search`), the app
 * runs it (GET /api/search), and the hits replace the list until Esc: ↑↓ move, Enter jumps to the
 * hit's session in the sessions view and says how to read it there (`muster show … --messages --from`).
 * `/` stays the list's own filter. Pure, like keys.ts: the app performs the `search` effect.
 */
import { composeLine, textLine, type Style } from './line.ts';
import { flash } from './state.ts';
import { shortId } from './format.ts';
import type { Effect, TuiState, TranscriptHit } from './types.ts';
import type { SearchResult } from '../search/types.ts';

export interface SearchKeyResult {
  state: TuiState;
  effects: Effect[];
}

/** Sessions asked of the daemon per search. */
export const TUI_SEARCH_LIMIT = 20;

/** One line per hit, best session first. */
export function hitsOf(results: SearchResult[]): TranscriptHit[] {
  return results.flatMap((r) => r.hits.map((h) => ({ harness: r.session.harness, id: r.session.id, title: r.session.title ?? '', role: h.role, position: h.position, at: h.at, snippet: h.snippet })));
}

/** The query typed at the `S` prompt was entered. */
export function startSearch(state: TuiState, query: string): SearchKeyResult {
  if (query === '') return { state, effects: [] };
  return { state: { ...state, transcripts: { query, hits: null, error: null, index: 0 } }, effects: [{ kind: 'search', q: query }] };
}

/** Keys while the hits are shown (normal mode). Null: not handled here. */
export function transcriptKeys(state: TuiState, key: { name: string; ch: string | null }, now: number): SearchKeyResult | null {
  const t = state.transcripts;
  if (!t) return null;
  const hits = t.hits ?? [];
  const to = (index: number): SearchKeyResult => ({ state: { ...state, transcripts: { ...t, index: Math.max(0, Math.min(hits.length - 1, index)) } }, effects: [] });
  if (key.name === 'escape' || key.ch === 'q') return { state: { ...state, transcripts: null }, effects: [] };
  if (key.name === 'up' || key.ch === 'k') return to(t.index - 1);
  if (key.name === 'down' || key.ch === 'j') return to(t.index + 1);
  if (key.name === 'return' || key.name === 'enter') {
    const h = hits[t.index];
    if (!h) return { state, effects: [] };
    const listed = state.sessions.has(h.id);
    const back: TuiState = { ...state, transcripts: null, view: 'sessions', selected: listed ? { ...state.selected, sessions: h.id } : state.selected, filters: { ...state.filters, text: '', status: null, harness: null } };
    return { state: flash(back, `${h.role} #${h.position} of ${shortId(h.id)} — read it: muster show ${h.id} --messages --from ${h.position}`, 'info', now), effects: [] };
  }
  return { state, effects: [] };
}

/** The hits in place of the list: `rows` lines of `columns`. */
export function renderHits(state: TuiState, rows: number, columns: number, style: Style): string[] {
  const t = state.transcripts;
  if (!t) return [];
  const out = [textLine(` Transcripts matching "${t.query}"  (↑↓ move · Enter: go to the session · Esc: back)`, columns, style, 'bold')];
  if (t.error) out.push(textLine(` ${t.error}`, columns, style, 'red'));
  else if (!t.hits) out.push(textLine(' searching…', columns, style, 'dim'));
  else if (t.hits.length === 0) out.push(textLine(' no matches', columns, style, 'dim'));
  const hits = t.hits ?? [];
  const room = Math.max(1, rows - out.length);
  const top = Math.max(0, Math.min(t.index - Math.floor(room / 2), hits.length - room));
  hits.slice(top, top + room).forEach((h, i) => {
    const on = top + i === t.index;
    out.push(composeLine([
      { text: ` ${h.harness.padEnd(8)} ${shortId(h.id)} `, width: 19, tones: ['dim'] },
      { text: `${h.role} #${h.position}`.padEnd(18), width: 18, tones: ['cyan'] },
      { text: h.title ? `${h.title.slice(0, 30)} · ` : '', width: h.title ? Math.min(33, h.title.length + 3) : 0 },
      { text: h.snippet },
    ], columns, style, on ? ['inverse'] : []));
  });
  return out.slice(0, rows);
}
