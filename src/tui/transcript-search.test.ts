import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { handleKey, type Key } from './keys.ts';
import { applySnapshot } from './state.ts';
import { initialState, type TuiState } from './types.ts';
import { renderFrame } from './render.ts';
import { hitsOf } from './transcript-search.ts';
import { session, uuid } from './tui-fixtures.test-support.ts';

const ctx = { now: 1_000_000, pageSize: 5 };
const k = (ch: string): Key => ({ name: ch.length === 1 ? ch.toLowerCase() : ch, ch: ch.length === 1 ? ch : null, ctrl: false, meta: false, shift: false });
const named = (name: string): Key => ({ name, ch: null, ctrl: false, meta: false, shift: false });
function press(state: TuiState, ...keys: Key[]) {
  let s = state;
  const effects = [];
  for (const key of keys) {
    const r = handleKey(s, key, ctx);
    s = r.state;
    effects.push(...r.effects);
  }
  return { state: s, effects };
}

describe('TUI transcript search (S)', () => {
  it('S asks for a query, Enter searches; the hits replace the list; Enter on one selects its session; / still filters', () => {
    const base = applySnapshot(initialState(), { sessions: [session(1), session(2)], pages: [], goals: [] });
    const asked = press(base, k('S'), ...[...'pelican'].map(k), named('return'));
    assert.deepEqual(asked.effects, [{ kind: 'search', q: 'pelican' }]);
    assert.equal(asked.state.transcripts?.query, 'pelican');
    assert.equal(asked.state.filters.text, '', 'the list filter is untouched');
    const hits = hitsOf([
      { session: { harness: 'claude', id: uuid(1), title: 'one', cwd: null, repoRoot: null, branch: null, live: true }, hits: [{ role: 'user', at: null, snippet: 'a pelican', marks: [[2, 9]], position: 4 }] },
      { session: { harness: 'claude', id: uuid(2), title: 'two', cwd: null, repoRoot: null, branch: null, live: false }, hits: [{ role: 'assistant', at: null, snippet: 'pelican again', marks: [[0, 7]], position: 9 }] },
    ]);
    const shown: TuiState = { ...asked.state, transcripts: { query: 'pelican', hits, error: null, index: 0 } };
    const frame = renderFrame(shown, { columns: 100, rows: 12, now: ctx.now, color: false }).lines.join('\n');
    assert.match(frame, /Transcripts matching "pelican"/);
    assert.match(frame, /assistant #9.*pelican again/);
    const jumped = press(shown, k('j'), named('return'));
    assert.equal(jumped.state.transcripts, null);
    assert.equal(jumped.state.selected.sessions, uuid(2));
    assert.match(jumped.state.flash?.text ?? '', /--messages --from 9/);
    const closed = press(shown, named('escape'));
    assert.equal(closed.state.transcripts, null);
    assert.equal(press(base, k('/'), k('x')).state.filters.text, 'x');
  });
});
