import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEvent, emptySummary, ignoredLine, turnRunning, type EventsSummary } from './events.ts';
import { eventsUntil, FIXTURES, PRINT_ID, TUI_ID } from './copilot-fixtures.test-support.ts';

function fold(text: string): EventsSummary {
  const s = emptySummary();
  for (const line of text.split('\n')) {
    if (!line.trim() || ignoredLine(line)) continue;
    applyEvent(s, JSON.parse(line));
  }
  return s;
}

const whole = (id: string) => readFileSync(join(FIXTURES, 'session-state', id, 'events.jsonl'), 'utf8');

test('a real print-mode session: id, cwd, model, first prompt, tokens of both model calls, no open prompt', () => {
  const s = fold(whole(PRINT_ID));
  assert.equal(s.sessionId, PRINT_ID);
  assert.equal(s.cwd, '/tmp/cop-play/h4/proj');
  assert.equal(s.model, 'fake-model');
  assert.equal(s.firstPrompt, 'RUNCMD: echo hi > q.txt');
  assert.deepEqual(s.tokens, { input: 200, output: 20, cacheRead: 0, cacheWrite: 0 });
  assert.deepEqual(Object.keys(s.byModel), ['fake-model']);
  assert.equal(s.startedAt, '2026-12-01T12:53:44.566Z');
  assert.equal(s.lastActivityAt, '2026-12-01T12:53:46.124Z');
  assert.deepEqual(s.pending, []);
  assert.equal(s.last.kind, 'shutdown');
  assert.equal(turnRunning(s), false);
});

test('a real interactive session: resumed once, three model calls, the approved prompt closed', () => {
  const s = fold(whole(TUI_ID));
  assert.deepEqual(s.tokens, { input: 300, output: 30, cacheRead: 0, cacheWrite: 0 });
  assert.equal(s.firstPrompt, 'RUNCMD: echo perm > p.txt');
  assert.deepEqual(s.pending, []);
  assert.equal(s.startedAt, '2026-12-01T12:50:02.653Z', 'the first start, not the resume');
});

test('cut at the permission request: the session waits on it, named by kind and command', () => {
  const s = fold(eventsUntil(TUI_ID, (l) => l.includes('"type":"permission.requested"')));
  assert.equal(s.pending.length, 1);
  assert.equal(s.pending[0]?.why, 'permission: shell (echo perm > p.txt)');
  assert.equal(s.pending[0]?.at, '2026-12-01T12:50:11.688Z');
  // The completion closes it; a resume (a new process) forgets a prompt its predecessor left open.
  const closed = fold(eventsUntil(TUI_ID, (l) => l.includes('"type":"permission.completed"')));
  assert.deepEqual(closed.pending, []);
  assert.equal(turnRunning(closed), true, 'approved: the tool runs on');
  const done = fold(eventsUntil(TUI_ID, (l) => l.includes('"content":"tool done"')));
  assert.equal(turnRunning(done), false, 'the reply without tool calls ends the work');
});

test('usage with cache reads (a real record): inputTokens include them, so input is the difference', () => {
  const s = fold(readFileSync(join(FIXTURES, 'usage-record-cached.jsonl'), 'utf8'));
  assert.deepEqual(s.tokens, { input: 100, output: 10, cacheRead: 50, cacheWrite: 0 });
});

test('the system prompt line is never parsed; foreign and malformed records change nothing', () => {
  assert.equal(ignoredLine('{"type":"system.message","data":{"role":"system","content":"You are'), true);
  assert.equal(ignoredLine('{"type":"user.message","data":{}}'), false);
  const s = emptySummary();
  for (const r of [null, 7, [], { type: 'x' }, { type: 'session.usage_record', data: { usage: { inputTokens: -5, outputTokens: 'x' } } }, { type: 'user.message', data: { content: 42 } }]) applyEvent(s, r);
  assert.deepEqual(s.tokens, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  assert.equal(s.firstPrompt, null);
});

test('a /fork copies the parent\'s events: the copied usage counts for the parent only, and names it', () => {
  const PARENT = '50ae97d4-a967-463e-98c2-ed4b76fbcbc1';
  const fork = fold(whole('dd768907-a6a8-438a-abbd-48cef02ae783'));
  const parent = fold(whole(PARENT));
  assert.equal(fork.forkedFrom, PARENT);
  assert.deepEqual(fork.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }, 'its own turn after the fork');
  assert.equal(fork.firstPrompt, 'before fork', 'the copied prompt (its folder names it "before fork (fork)")');
  assert.equal(parent.forkedFrom, null);
  assert.deepEqual(parent.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });
});
