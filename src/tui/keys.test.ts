import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { handleKey, type Key } from './keys.ts';
import { sessionRows } from './rows.ts';
import { applyEvent, applySnapshot } from './state.ts';
import { initialState, type TuiState } from './types.ts';
import { goal, page, session, uuid } from './tui-fixtures.test-support.ts';

const ctx = { now: 1_000_000, pageSize: 5 };
const k = (ch: string): Key => ({ name: ch.length === 1 ? ch.toLowerCase() : ch, ch: ch.length === 1 ? ch : null, ctrl: false, meta: false, shift: false });
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
const start = () => applySnapshot(initialState(), {
  sessions: [session(1, { status: 'working' }), session(2, { status: 'waiting', waitingFor: 'permission' }), session(3, { live: false, status: 'ended', pid: null })],
  pages: [page(1, { choices: ['merge', 'wait'] }), page(2, { kind: 'notice', level: 'info' })],
  goals: [goal(uuid(1))],
});

describe('keys', () => {
  it('the selection follows the session, not the row, when the order changes', () => {
    let { state } = press(start(), k('j'));
    assert.equal(sessionRows(state)[1]!.id, uuid(1));
    state = applyEvent(state, { type: 'session.status.changed', data: { id: uuid(1), status: 'waiting', waitingFor: 'q', live: true, statusSince: '2025-01-01T00:00:00.000Z' } });
    assert.equal(sessionRows(state)[0]!.id, uuid(1), 'the older wait moved to the top');
    const r = press(state, k('f'));
    assert.deepEqual(r.effects, [{ kind: 'call', label: 'focus 00000000', method: 'POST', path: '/focus', body: { sessionId: uuid(1), via: 'cli' } }]);
  });

  it('end asks first: y sends it, anything else cancels', () => {
    const asked = press(start(), k('x'));
    assert.equal(asked.state.mode.kind, 'confirm');
    assert.deepEqual(asked.effects, []);
    assert.deepEqual(press(asked.state, k('y')).effects.map((e) => e.kind === 'call' && [e.method, e.path, e.body]), [['POST', '/end', { sessionId: uuid(2), via: 'cli' }]]);
    const no = press(asked.state, k('n'));
    assert.deepEqual(no.effects, []);
    assert.equal(no.state.mode.kind, 'normal');
    assert.equal(no.state.flash?.text, 'cancelled');
  });

  it('a dormant session cannot be ended; Enter resumes it', () => {
    const s = press(start(), named('end'));
    assert.equal(press(s.state, k('x')).effects.length, 0);
    assert.deepEqual(press(s.state, named('return')).effects.map((e) => e.kind === 'call' && e.path), ['/resume']);
  });

  it('goal keys: s types an objective; p, u, c (asks) act on the selected session\'s goal', () => {
    let r = press(start(), k('j'), k('s'));
    assert.deepEqual(r.state.mode.kind === 'input' && r.state.mode.text, 'ship it', 'the current objective is offered for editing');
    r = press(r.state, named('u', { ctrl: true }), ...[...'ship it'].map((c) => k(c)), named('backspace'), k('!'), named('return'));
    const set = r.effects[0];
    assert.ok(set?.kind === 'call');
    assert.deepEqual([set.method, set.path, set.body], ['POST', '/goals', { sessionId: uuid(1), objective: 'ship i!', harness: 'claude' }]);
    const base = press(start(), k('j')).state;
    assert.deepEqual(press(base, k('p')).effects.map((e) => e.kind === 'call' && e.path), [`/goals/${uuid(1)}/pause`]);
    assert.deepEqual(press(base, k('u')).effects.map((e) => e.kind === 'call' && e.path), [`/goals/${uuid(1)}/resume`]);
    assert.deepEqual(press(base, k('c'), k('y')).effects.map((e) => e.kind === 'call' && [e.method, e.path]), [['DELETE', `/goals/${uuid(1)}`]]);
    assert.equal(press(start(), k('p')).state.flash?.level, 'error', 'no goal on the waiting session');
  });

  it('m types a message and sends it to the selected session\'s send route; a dormant one is resumed with it', () => {
    const live = press(start(), k('j'), k('m'));
    assert.equal(live.state.mode.kind === 'input' && live.state.mode.prompt, 'Send to 00000000: ');
    const sent = press(live.state, ...[...'run $(x)'].map((c) => k(c)), named('return'));
    const call = sent.effects[0];
    assert.ok(call?.kind === 'call');
    assert.deepEqual([call.method, call.path, call.body], ['POST', `/sessions/claude/${uuid(1)}/send`, { text: 'run $(x)', via: 'cli' }]);
    assert.equal(sent.state.mode.kind, 'normal');
    const dormant = press(start(), named('end'), k('m'));
    assert.match(dormant.state.mode.kind === 'input' ? dormant.state.mode.prompt : '', /^Resume with /);
    const empty = press(live.state, named('return'));
    assert.deepEqual(empty.effects, []);
    assert.equal(empty.state.flash?.text, 'nothing sent (empty)');
  });

  it('pages: a choice asks first then answers with its index; free text answers with text; d dismisses', () => {
    const inbox = press(start(), named('tab')).state;
    assert.equal(inbox.view, 'pages');
    const choice = press(inbox, k('2'), k('y'));
    assert.deepEqual(choice.effects.map((e) => e.kind === 'call' && [e.path, e.body]), [[`/pages/${page(1).id}/answer`, { choice: 1 }]]);
    const text = press(inbox, k('a'), ...[...'eu-west'].map((c) => k(c)), named('return'));
    assert.deepEqual(text.effects.map((e) => e.kind === 'call' && e.body), [{ text: 'eu-west' }]);
    const notice = press(inbox, k('j'));
    assert.equal(press(notice.state, k('a')).state.flash?.level, 'error');
    assert.deepEqual(press(notice.state, k('d'), k('y')).effects.map((e) => e.kind === 'call' && e.path), [`/pages/${page(2).id}/dismiss`]);
  });

  it('search filters while typing; Escape clears it; an Escape fused with the next key counts as both', () => {
    const typed = press(start(), k('/'), k('2'));
    assert.equal(typed.state.filters.text, '2');
    assert.deepEqual(sessionRows(typed.state).map((s) => s.id), [uuid(2)]);
    const fused = press(typed.state, { name: 'q', ch: 'q', ctrl: false, meta: true, shift: false });
    assert.equal(fused.state.filters.text, '');
    assert.deepEqual(fused.effects, [{ kind: 'quit' }]);
  });

  it('status and harness filters cycle; q and Ctrl-C quit; ? opens help and any key closes it', () => {
    const t = press(start(), k('t'), k('t'));
    assert.equal(t.state.filters.status, 'waiting');
    assert.equal(press(start(), k('h')).state.filters.harness, 'claude');
    assert.deepEqual(press(start(), named('c', { ctrl: true })).effects, [{ kind: 'quit' }]);
    const help = press(start(), k('?'));
    assert.equal(help.state.mode.kind, 'help');
    assert.equal(press(help.state, k('x')).state.mode.kind, 'normal');
  });
});
