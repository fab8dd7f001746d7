// The TUI's `n`: a new session in the selected session's directory (issue 21, point 1: "a key in the TUI").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { handleKey, type Key } from './keys.ts';
import { renderFrame } from './render.ts';
import { applySnapshot } from './state.ts';
import { initialState, type TuiState } from './types.ts';
import { session } from './tui-fixtures.test-support.ts';

const ctx = { now: 1_000_000, pageSize: 5 };
const ch = (c: string): Key => ({ name: c.toLowerCase(), ch: c, ctrl: false, meta: false, shift: false });
const named = (name: string, mods: Partial<Key> = {}): Key => ({ name, ch: null, ctrl: false, meta: false, shift: false, ...mods });
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
const world = (cwd: string | null = '/work/repo1') => applySnapshot(initialState(), { sessions: [session(1, { harness: 'pi', cwd })], pages: [], goals: [] });
const typed = (text: string) => [...text].map((c) => (c === ' ' ? { ...ch(' '), name: 'space' } : ch(c)));

describe('tui: n starts a new session', () => {
  it("opens on the selected session's harness and directory; Tab cycles the harness; Enter asks the daemon", () => {
    const opened = press(world(), ch('n'));
    assert.deepEqual(opened.state.mode, { kind: 'new', harness: 'pi', cwd: '/work/repo1', text: '' });
    assert.deepEqual(opened.effects, []);
    // eslint-disable-next-line no-control-regex -- stripping the bold of the prompt
    const screen = (renderFrame(opened.state, { columns: 160, rows: 20, now: ctx.now, color: false }).lines.at(-1) ?? '').replace(/\x1b\[[0-9;]*m/g, '');
    assert.match(screen, /New pi session in \/work\/repo1 \(Tab: harness, Enter: start\) first prompt › █/);
    const r = press(opened.state, named('tab'), ...typed('fix $(it) now'), named('backspace'), named('return'));
    assert.deepEqual(r.effects, [{ kind: 'call', label: 'start omp session', method: 'POST', path: '/sessions/new', body: { harness: 'omp', cwd: '/work/repo1', prompt: 'fix $(it) no' } }]);
    assert.equal(r.state.mode.kind, 'normal');
  });

  it('an empty prompt starts it without one; Escape cancels; no directory, no start', () => {
    assert.deepEqual(press(world(), ch('n'), named('return')).effects.map((e) => e.kind === 'call' && e.body), [{ harness: 'pi', cwd: '/work/repo1' }]);
    const cancelled = press(world(), ch('n'), ch('x'), named('escape'));
    assert.deepEqual([cancelled.effects, cancelled.state.mode.kind, cancelled.state.flash?.text], [[], 'normal', 'cancelled']);
    const none = press(world(null), ch('n'));
    assert.equal(none.state.mode.kind, 'normal');
    assert.match(none.state.flash?.text ?? '', /select a session first/);
  });
});
