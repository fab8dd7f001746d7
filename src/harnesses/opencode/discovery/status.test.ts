import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveOpenCodeStatus, DIED_MID_TURN, type StatusInput } from './status.ts';
import type { MessageFacts, OpenCodeSessionSummary } from './summary.ts';

const msg = (role: 'user' | 'assistant', createdMs: number, o: Partial<MessageFacts> = {}): MessageFacts =>
  ({ id: `msg_${createdMs}`, role, createdMs, completedMs: null, error: null, finish: null, model: null, ...o });

function summary(o: Partial<OpenCodeSessionSummary>): OpenCodeSessionSummary {
  return {
    id: 'ses_aaaaaaaaaaaaAAAAAAAAAAAAAA', store: 'db', key: 'k', title: 't', directory: '/p', model: null,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, createdMs: 0, updatedMs: 1000,
    lastUser: null, lastAssistant: null, runningTool: null, ...o,
  };
}
const done = summary({ lastUser: msg('user', 1000), lastAssistant: msg('assistant', 1100, { completedMs: 1500, finish: 'stop' }) });
const killed = summary({ lastUser: msg('user', 1000), lastAssistant: msg('assistant', 1100) });
const base: Omit<StatusInput, 'summary' | 'live'> = {};

test('dormant: ended, or stuck when the process died mid-reply (SIGKILL, SIGTERM to `run`)', () => {
  assert.deepEqual(deriveOpenCodeStatus({ ...base, summary: done, live: false }), { status: 'ended', waitingFor: null, sinceMs: 1500 });
  assert.deepEqual(deriveOpenCodeStatus({ ...base, summary: killed, live: false }), { status: 'stuck', waitingFor: DIED_MID_TURN, sinceMs: 1100 });
  // Died between two steps of one turn (after a tool call): the turn is still open, so stuck too.
  const betweenSteps = summary({ lastUser: msg('user', 1000), lastAssistant: msg('assistant', 1100, { completedMs: 1200, finish: 'tool-calls' }) });
  assert.equal(deriveOpenCodeStatus({ ...base, summary: betweenSteps, live: false }).status, 'stuck');
  // A prompt whose reply never started (died before the assistant message) is the same case.
  assert.equal(deriveOpenCodeStatus({ ...base, summary: summary({ lastUser: msg('user', 1000) }), live: false }).status, 'stuck');
  // SIGTERM to the TUI aborts cleanly: completed with MessageAbortedError → ended, not stuck.
  const aborted = summary({ lastUser: msg('user', 1000), lastAssistant: msg('assistant', 1100, { completedMs: 1200, error: 'MessageAbortedError' }) });
  assert.equal(deriveOpenCodeStatus({ ...base, summary: aborted, live: false }).status, 'ended');
});

test('live without a server: the store decides working or idle', () => {
  assert.deepEqual(deriveOpenCodeStatus({ ...base, summary: killed, live: true }), { status: 'working', waitingFor: null, sinceMs: 1000 });
  assert.deepEqual(deriveOpenCodeStatus({ ...base, summary: done, live: true }), { status: 'idle', waitingFor: null, sinceMs: 1500 });
  // Between two steps of one turn (tool calls) the turn is still open.
  const between = summary({ lastUser: msg('user', 1000), lastAssistant: msg('assistant', 1100, { completedMs: 1200, finish: 'tool-calls' }) });
  assert.equal(deriveOpenCodeStatus({ ...base, summary: between, live: true }).status, 'working');
});

test('live with a server: busy, waiting on a permission, retry, idle', () => {
  const perm = { id: 'per_1', sessionId: 'ses_aaaaaaaaaaaaAAAAAAAAAAAAAA', reason: 'bash: touch /tmp/x', createdMs: 1700 };
  assert.equal(deriveOpenCodeStatus({ ...base, summary: killed, live: true, server: { status: { type: 'busy' }, permissions: [] } }).status, 'working');
  assert.deepEqual(deriveOpenCodeStatus({ ...base, summary: killed, live: true, server: { status: { type: 'busy' }, permissions: [perm] } }),
    { status: 'waiting', waitingFor: 'bash: touch /tmp/x', sinceMs: 1700 });
  const retry = deriveOpenCodeStatus({ ...base, summary: killed, live: true, server: { status: { type: 'retry', attempt: 2, message: 'rate limited' }, permissions: [] } });
  assert.deepEqual([retry.status, retry.waitingFor], ['stuck', 'model request retrying (attempt 2): rate limited']);
  // The server is exact: absent from its busy list means idle even if the store looks unfinished.
  assert.equal(deriveOpenCodeStatus({ ...base, summary: killed, live: true, server: { status: undefined, permissions: [] } }).status, 'idle');
});
