import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyTokens, type Session } from '../core/session.ts';
import { renderSessionTable } from './table.ts';

const base: Session = {
  harness: 'gemini', id: '11111111-2222-4333-8444-555555555555', title: 'quiet one', cwd: '/w/p', repoRoot: null, branch: null, live: true, pid: 42, pids: [42],
  status: 'idle', waitingFor: null, statusSince: null, startedAt: null, lastActivityAt: null, model: null, tokens: emptyTokens(), costUsd: null,
  prLinks: [], pane: null, canEnd: true, resumeArgv: null,
};

test('muster ls: a live session nothing reports on shows its status as unknown', () => {
  assert.match(renderSessionTable([{ ...base, statusKnown: false }], 120).split('\n')[1] ?? '', /^gemini\s+unknown\s+11111111/);
  assert.match(renderSessionTable([base], 120).split('\n')[1] ?? '', /^gemini\s+idle\s+/);
});
