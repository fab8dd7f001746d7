import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffSessions, sessionKey } from './diff.ts';
import { emptyTokens, type Session } from '../core/session.ts';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
// A fresh object each call, as each listing builds its sessions anew.
const session = (n: number, over: Partial<Session> = {}): Session => ({
  harness: 'claude', id: uuid(n), title: `session ${n}`, cwd: '/w', repoRoot: '/w', branch: 'main', live: true, pid: 1000 + n, pids: [1000 + n],
  status: 'idle', waitingFor: null, statusSince: '2026-01-01T00:00:00.000Z', startedAt: null, lastActivityAt: '2026-01-01T00:00:00.000Z',
  model: null, tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null, canEnd: true, resumeArgv: null, ...over,
});
const known = (...list: Session[]) => new Map(list.map((s) => [sessionKey(s), s]));

test('an unchanged listing (equal copies) sends nothing', () => {
  const d = diffSessions(known(session(1), session(2)), [session(1), session(2)]);
  assert.deepEqual(d, { upserted: [], removed: [], statusChanged: [] });
});

test('any field that changed re-sends the session; only status, reason and liveness count as a status change', () => {
  const d = diffSessions(known(session(1), session(2)), [session(1, { lastActivityAt: '2026-01-01T00:01:00.000Z' }), session(2, { status: 'waiting', waitingFor: 'permission' })]);
  assert.deepEqual(d.upserted.map((s) => s.id), [uuid(1), uuid(2)]);
  assert.deepEqual(d.statusChanged.map((c) => [c.session.id, c.previous.status]), [[uuid(2), 'idle']]);
  assert.deepEqual(d.removed, []);
});

test('a session missing from the listing is removed; a new one is upserted', () => {
  const d = diffSessions(known(session(1)), [session(3)]);
  assert.deepEqual([d.upserted.map((s) => s.id), d.removed.map((s) => s.id)], [[uuid(3)], [uuid(1)]]);
});
