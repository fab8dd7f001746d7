// The TUI in a fleet: another host's sessions and pages carry a host column, a silent host's rows are
// marked, `o` cycles the host filter (this host, then the others by name), Esc clears it; outside a
// fleet nothing changes.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { renderFrame } from './render.ts';
import { applySnapshot } from './state.ts';
import { handleKey } from './keys.ts';
import { initialState, THIS_HOST, type TuiState } from './types.ts';
import { sessionRows } from './rows.ts';
import { page, session } from './tui-fixtures.test-support.ts';

// eslint-disable-next-line no-control-regex -- stripping SGR to read what the terminal shows
const plain = (l: string) => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
const now = Date.parse('2026-01-01T01:00:00.000Z');
const key = (ch: string, name = ch) => ({ name, ch, ctrl: false, meta: false, shift: false });
const remote = (n: number, host: string, over = {}) => session(n, { title: `on ${host} ${n}`, host, hostId: `hst_${host.padEnd(26, 'x')}`, hostReachable: true, readOnly: false, ...over });

function fleetWorld(): TuiState {
  const sessions = [session(1, { title: 'mine' }), remote(2, 'gpu'), remote(3, 'vm', { hostReachable: false })];
  return applySnapshot(initialState({ connection: 'live' }), { sessions, pages: [page(1, { host: 'gpu', hostId: 'hst_gpuxxxxxxxxxxxxxxxxxxxxxxx' })], goals: [] });
}
const screen = (s: TuiState) => renderFrame(s, { columns: 120, rows: 20, now, color: false }).lines.map(plain).join('\n');

it('sessions and pages of other hosts carry a host column; a silent host is marked', () => {
  const text = screen(fleetWorld());
  assert.match(text, /this host .*mine/);
  assert.match(text, /gpu .*on gpu 2/);
  assert.match(text, /vm\? .*on vm 3/);
  assert.match(screen({ ...fleetWorld(), view: 'pages' }), /gpu .*question 1\?/);
  const solo = applySnapshot(initialState({ connection: 'live' }), { sessions: [session(1, { title: 'mine' })], pages: [], goals: [] });
  assert.doesNotMatch(screen(solo), /this host/, 'outside a fleet: no host column');
});

it('o cycles the host filter: this host, then the others by name, then all; Esc clears it', () => {
  let s = fleetWorld();
  const titles = () => sessionRows(s).map((x) => x.title);
  s = handleKey(s, key('o'), { now, pageSize: 5 }).state;
  assert.equal(s.filters.host, THIS_HOST);
  assert.deepEqual(titles(), ['mine']);
  s = handleKey(s, key('o'), { now, pageSize: 5 }).state;
  assert.deepEqual([s.filters.host, titles()], ['gpu', ['on gpu 2']]);
  assert.match(screen(s), /host=gpu/);
  s = handleKey(s, key('o'), { now, pageSize: 5 }).state;
  assert.deepEqual([s.filters.host, titles()], ['vm', ['on vm 3']]);
  s = handleKey(s, key('', 'escape'), { now, pageSize: 5 }).state;
  assert.equal(s.filters.host, null);
  assert.equal(titles().length, 3);
});

it('outside a fleet, o says so and filters nothing', () => {
  const solo = applySnapshot(initialState({ connection: 'live' }), { sessions: [session(1)], pages: [], goals: [] });
  const r = handleKey(solo, key('o'), { now, pageSize: 5 }).state;
  assert.equal(r.filters.host, null);
  assert.match(r.flash?.text ?? '', /not in a fleet/);
});

it('n on another host\'s session starts nothing here and names the host', () => {
  let s = fleetWorld();
  s = handleKey(s, key('o'), { now, pageSize: 5 }).state;
  s = handleKey(s, key('o'), { now, pageSize: 5 }).state;
  const r = handleKey(s, key('n'), { now, pageSize: 5 });
  assert.equal(r.state.mode.kind, 'normal');
  assert.deepEqual(r.effects, []);
  assert.match(r.state.flash?.text ?? '', /host "gpu"/);
});
