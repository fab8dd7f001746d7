// Attribution order: wrapper headers, then Codex's thread id, then exactly one live session in the cwd.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveAttribution, type SessionLookup } from './attribution.ts';
import type { Session } from '../core/session.ts';

const A = '11111111-2222-4333-8444-555555555555';
const B = '21111111-2222-4333-8444-555555555555';
const s = (id: string, harness: Session['harness'], cwd: string) => ({ id, harness, cwd, live: true }) as Session;
const sessions = [s(A, 'claude', '/repo'), s(B, 'codex', '/repo'), s(A.replace('1', '3'), 'claude', '/other')];
const lookup: SessionLookup = {
  get: (id) => sessions.find((x) => x.id === id),
  live: (cwd, harness) => sessions.filter((x) => (x.cwd === cwd || x.cwd?.startsWith(`${cwd}/`)) && (!harness || x.harness === harness)),
};

test('wrapper headers win; harness filled from the hub when not sent', () => {
  const a = resolveAttribution({ sessionId: A, launchId: 'launch-7', toolMeta: { threadId: B } }, lookup);
  assert.deepEqual(a, { sessionId: A, harness: 'claude', via: 'header', launchId: 'launch-7', cwd: null, note: null });
});

test("Codex's _meta.threadId names the session", () => {
  assert.equal(resolveAttribution({ toolMeta: { threadId: B } }, lookup).via, 'codex-thread');
  assert.equal(resolveAttribution({ toolMeta: { threadId: B } }, lookup).harness, 'codex');
  assert.equal(resolveAttribution({ toolMeta: { threadId: 'not-a-uuid' } }, lookup).via, 'none');
});

test('cwd + harness (header or MCP client name) match exactly one live session; two is ambiguous and says so', () => {
  assert.equal(resolveAttribution({ cwd: '/repo', clientName: 'claude-code' }, lookup).sessionId, A);
  assert.equal(resolveAttribution({ rootCwd: '/repo/', harness: 'codex' }, lookup).sessionId, B);
  const amb = resolveAttribution({ cwd: '/repo' }, lookup);
  assert.equal(amb.sessionId, null);
  assert.match(amb.note ?? '', /2 live agent sessions in \/repo/);
});

test('nothing to go on: unattributed, and the note says why; bad header values are ignored', () => {
  const a = resolveAttribution({ sessionId: 'x; DROP', harness: 'vim', launchId: 'a b', cwd: 'relative' }, lookup);
  assert.deepEqual(a, { sessionId: null, harness: null, via: 'none', launchId: null, cwd: null, note: 'unattributed: no wrapper headers, no Codex thread id and no working directory' });
});

test('a launch id alone names the session its launch record is bound to; an unbound launch falls through', () => {
  const withLaunches: SessionLookup = { ...lookup, launchSession: (id) => (id === 'lch_bound' ? B : null) };
  const a = resolveAttribution({ launchId: 'lch_bound', harness: 'codex', cwd: '/repo' }, withLaunches);
  assert.deepEqual(a, { sessionId: B, harness: 'codex', via: 'header', launchId: 'lch_bound', cwd: '/repo', note: null });
  assert.equal(resolveAttribution({ launchId: 'lch_bound' }, withLaunches).harness, 'codex', 'harness from the hub');
  const unbound = resolveAttribution({ launchId: 'lch_other', cwd: '/repo' }, withLaunches);
  assert.equal(unbound.sessionId, null);
  assert.match(unbound.note ?? '', /2 live agent sessions/);
});
