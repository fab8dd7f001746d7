// The list grouped by host, then repo (web/src/list-order.ts groupByHost): this host first, the others by
// name; repos by path with "no directory" last; rows keep their order inside a group. Pure: no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupByHost, matches, NO_FILTERS, SELF } from '../../web/src/list-order.ts';
import type { Session } from '../../web/src/types.ts';

const s = (n: number, host: string | null, cwd: string | null): Session => ({
  harness: 'claude', id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, title: `S${n}`, cwd, repoRoot: null, branch: null, status: 'idle', statusSince: null,
  waitingFor: null, live: true, model: null, pid: 1, pids: [1], pane: null, prLinks: [], startedAt: null, costUsd: null, lastActivityAt: null, canEnd: false, resumeArgv: null,
  tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, ...(host ? { host, hostId: `hst_${host.toLowerCase().padEnd(26, '0')}` } : {}),
});

test('groups by host (this host first), then repo (no directory last), keeping row order inside', () => {
  const rows = [s(1, 'zeta', '/r/b'), s(2, null, '/r/x'), s(3, 'alpha', null), s(4, 'zeta', '/r/a'), s(5, 'zeta', '/r/b'), s(6, 'alpha', '/r/c')];
  const items = groupByHost(rows, 'me', new Map([['zeta', { reachable: false, acceptCommands: false }]]));
  assert.deepEqual(items.map((i) => (i.kind === 'host' ? `H ${i.host}` : i.kind === 'repo' ? `R ${i.repo}` : i.s.title)), [
    'H me', 'R /r/x', 'S2',
    'H alpha', 'R /r/c', 'S6', 'R ', 'S3',
    'H zeta', 'R /r/a', 'S4', 'R /r/b', 'S1', 'S5',
  ]);
  const zeta = items.find((i) => i.kind === 'host' && i.host === 'zeta');
  assert.deepEqual(zeta && zeta.kind === 'host' && [zeta.count, zeta.reachable, zeta.readOnly], [3, false, true]);
  const row = items.find((i) => i.kind === 'row' && i.s.title === 'S5');
  assert.equal(row?.kind === 'row' && row.row, 4, 'a row keeps its index into the sorted rows (the cursor)');
});

test('the host filter tells this host\'s sessions (no hostId) from another host\'s', () => {
  assert.equal(matches(s(1, null, null), { ...NO_FILTERS, host: SELF }), true);
  assert.equal(matches(s(1, 'zeta', null), { ...NO_FILTERS, host: SELF }), false);
  assert.equal(matches(s(1, 'zeta', null), { ...NO_FILTERS, host: 'zeta' }), true);
});
