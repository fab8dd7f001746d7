import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sessionIdOf, transitionFor } from './transitions.ts';

const SAMPLES = '/work/shared/harnesses/samples';

test('Claude: the real hook payloads map to the documented statuses (claude-code.md §8)', () => {
  const lines = readFileSync(`${SAMPLES}/claude-code/hooks-stdin-samples.jsonl`, 'utf8').split('\n').filter(Boolean);
  const seen: Record<string, string | null> = {};
  for (const line of lines) {
    const rec = JSON.parse(line) as { event?: string; stdin?: Record<string, unknown> };
    const payload = rec.stdin ?? (rec as Record<string, unknown>);
    const event = String(payload.hook_event_name ?? rec.event);
    const t = transitionFor('claude', event, payload);
    seen[event === 'Notification' ? `Notification/${String(payload.notification_type)}` : event] = t ? `${t.status}${t.waitingFor ? `:${t.waitingFor}` : ''}` : null;
    if (payload.session_id) assert.equal(sessionIdOf('claude', payload), payload.session_id);
  }
  assert.equal(seen.SessionStart, 'idle');
  assert.equal(seen.UserPromptSubmit, 'working');
  assert.equal(seen.Stop, 'idle');
  assert.equal(seen.SessionEnd, 'ended');
  assert.match(String(seen.PermissionRequest), /^waiting:permission: /);
});

test('Claude notifications: permission_prompt waits with the message, idle_prompt stays idle, others change nothing', () => {
  assert.deepEqual(transitionFor('claude', 'Notification', { notification_type: 'permission_prompt', message: 'Claude needs your permission' }), { status: 'waiting', waitingFor: 'Claude needs your permission' });
  assert.deepEqual(transitionFor('claude', 'Notification', { notification_type: 'idle_prompt' }), { status: 'idle', waitingFor: null });
  assert.equal(transitionFor('claude', 'Notification', { notification_type: 'auth_success' }), null);
  assert.equal(transitionFor('claude', 'NoSuchEvent', {}), null);
});

test('Codex hooks and notify; the thread id names the session', () => {
  // Lines are `<time>\t<ppid>\t<the one argv argument>`.
  const line = readFileSync(`${SAMPLES}/codex/notify.log.sample`, 'utf8').split('\n').find((l) => l.includes('agent-turn-complete')) ?? '';
  const notify = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
  assert.deepEqual(transitionFor('codex', 'notify', notify), { status: 'idle', waitingFor: null });
  assert.equal(sessionIdOf('codex', notify), notify['thread-id']);
  assert.deepEqual(transitionFor('codex', 'PermissionRequest', { tool_name: 'Bash' }), { status: 'waiting', waitingFor: 'permission: Bash' });
  assert.equal(transitionFor('codex', 'PreToolUse', {})?.status, 'working');
  assert.equal(transitionFor('codex', 'SessionEnd', {})?.status, 'ended');
});

test('OpenCode plugin events and pi/omp extension events', () => {
  assert.equal(transitionFor('opencode', 'session.status', { status: { type: 'busy' } })?.status, 'working');
  assert.equal(transitionFor('opencode', 'session.status', { status: { type: 'idle' } })?.status, 'idle');
  assert.deepEqual(transitionFor('opencode', 'permission.asked', { permission: 'bash' }), { status: 'waiting', waitingFor: 'permission: bash' });
  assert.equal(transitionFor('opencode', 'session.status', { status: 'garbage' }), null, 'wrong shapes are ignored, not thrown on');
  assert.equal(sessionIdOf('opencode', { sessionID: 'ses_x' }), 'ses_x');
  for (const h of ['pi', 'omp'] as const) {
    assert.equal(transitionFor(h, 'agent_start', {})?.status, 'working');
    assert.equal(transitionFor(h, 'agent_end', {})?.status, 'idle');
    assert.equal(transitionFor(h, 'session_shutdown', {})?.status, 'ended');
  }
});
