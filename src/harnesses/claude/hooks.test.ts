import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { claudeHooks, blockCapFrom } from './hooks.ts';

/** Real hook stdin payloads Claude Code 2.1.332 sent (fixtures/, copied from a run against the fake model). */
const SAMPLES = new URL('./fixtures/hooks-stdin-samples.jsonl', import.meta.url);

test('Claude: the real hook payloads map to their statuses', () => {
  const lines = readFileSync(SAMPLES, 'utf8').split('\n').filter(Boolean);
  const seen: Record<string, string | null> = {};
  for (const line of lines) {
    const rec = JSON.parse(line) as { event?: string; stdin?: Record<string, unknown> };
    const payload = rec.stdin ?? (rec as Record<string, unknown>);
    const event = String(payload.hook_event_name ?? rec.event);
    const t = claudeHooks.transition(event, payload);
    seen[event === 'Notification' ? `Notification/${String(payload.notification_type)}` : event] = t ? `${t.status}${t.waitingFor ? `:${t.waitingFor}` : ''}` : null;
    if (payload.session_id) assert.equal(claudeHooks.sessionIdOf(payload), payload.session_id);
  }
  assert.equal(seen.SessionStart, 'idle');
  assert.equal(seen.UserPromptSubmit, 'working');
  assert.equal(seen.Stop, 'idle');
  assert.equal(seen.SessionEnd, 'ended');
  assert.match(String(seen.PermissionRequest), /^waiting:permission: /);
});

test('Claude notifications: permission_prompt waits with the message, idle_prompt stays idle, others change nothing', () => {
  assert.deepEqual(claudeHooks.transition('Notification', { notification_type: 'permission_prompt', message: 'Claude needs your permission' }), { status: 'waiting', waitingFor: 'Claude needs your permission' });
  assert.deepEqual(claudeHooks.transition('Notification', { notification_type: 'idle_prompt' }), { status: 'idle', waitingFor: null });
  assert.equal(claudeHooks.transition('Notification', { notification_type: 'auth_success' }), null);
  assert.equal(claudeHooks.transition('NoSuchEvent', {}), null);
});

test('Stop is the turn end; the block cap comes from Claude\'s environment (0 = none, garbage = the default 8)', () => {
  assert.equal(claudeHooks.turnEnd?.event, 'Stop');
  assert.equal(blockCapFrom({}), 8);
  assert.equal(blockCapFrom({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' }), 3);
  assert.equal(blockCapFrom({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' }), 0);
  assert.equal(blockCapFrom({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: 'x' }), 8);
});
