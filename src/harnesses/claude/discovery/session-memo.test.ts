import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from '../../../core/session.ts';
import type { GitInfo } from '../../../discovery/git/index.ts';
import { buildSession } from './build-session.ts';
import type { SessionParts } from './build-session.ts';
import type { RegistryEntry } from './registry.ts';
import { createSessionMemo } from './session-memo.ts';
import { createTranscriptSummary } from './transcript.ts';

const ID = '00000000-0000-4000-8000-000000000001';

/** A fresh entry each call, as each registry scan gives a copy. */
const entry = (over: Partial<RegistryEntry> = {}): RegistryEntry => ({
  pid: 4242, sessionId: ID, cwd: '/w', startedAt: 1_000, procStart: 7, kind: null, entrypoint: null, status: 'idle', waitingFor: null,
  statusUpdatedAt: 2_000, updatedAt: 2_000, tmux: null, name: null, nameSource: null, ...over,
});

function setup() {
  let builds = 0;
  let branch = 'main';
  const gitAsked: string[] = [];
  const memo = createSessionMemo((parts) => {
    builds++;
    return buildSession(parts);
  });
  const summary = createTranscriptSummary();
  summary.records = 1;
  summary.cwd = '/w';
  const git = (cwd: string): GitInfo => {
    gitAsked.push(cwd);
    return { repoRoot: '/w', branch };
  };
  const parts = (over: Partial<SessionParts> = {}): SessionParts => ({ id: ID, summary, transcriptMtimeMs: 5_000, live: [entry()], git, folderCwd: null, ...over });
  return { memo, parts, summary, gitAsked, builds: () => builds, checkout: (b: string) => void (branch = b) };
}

test('unchanged inputs give the session built before, and git is asked again', () => {
  const t = setup();
  const first = t.memo.build(t.parts());
  const again = t.memo.build(t.parts());
  assert.equal(again, first);
  assert.equal(t.builds(), 1);
  assert.deepEqual(t.gitAsked, ['/w', '/w']);
});

test('each input that changed builds the session again', () => {
  const cases: [string, (t: ReturnType<typeof setup>) => Partial<SessionParts>][] = [
    ['a new summary (the file was read again)', (t) => ({ summary: { ...t.summary } })],
    ['another mtime', () => ({ transcriptMtimeMs: 6_000 })],
    ['a registry entry whose status moved', () => ({ live: [entry({ status: 'busy' })] })],
    ['the process gone', () => ({ live: [] })],
    ['a folder cwd', () => ({ folderCwd: '/elsewhere' })],
    ['a fork share', () => ({ fork: { forkedFrom: ID.replace(/1$/, '2'), shared: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0 }, sharedByModel: {}, carried: null } })],
  ];
  for (const [name, change] of cases) {
    const t = setup();
    const first = t.memo.build(t.parts());
    const next = t.memo.build(t.parts(change(t)));
    assert.notEqual(next, first, name);
    assert.equal(t.builds(), 2, name);
  }
});

test('a branch checked out since is seen, though no file changed', () => {
  const t = setup();
  const first: Session = t.memo.build(t.parts());
  t.checkout('feature');
  const next = t.memo.build(t.parts());
  assert.equal(first.branch, 'main');
  assert.equal(next.branch, 'feature');
});

test('a sweep forgets the sessions not built since the one before', () => {
  const t = setup();
  const first = t.memo.build(t.parts());
  t.memo.sweep(); // it was built in this round: kept
  assert.equal(t.memo.build(t.parts()), first);
  t.memo.sweep();
  t.memo.sweep(); // not built in the round that just ended: forgotten
  assert.notEqual(t.memo.build(t.parts()), first);
  assert.equal(t.builds(), 2);
});
