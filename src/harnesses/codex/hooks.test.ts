import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { codexHooks } from './hooks.ts';

/** A real `notify` call of Codex 0.171.0: `<time>\t<ppid>\t<the one argv argument>` (fixtures/). */
const NOTIFY = new URL('./fixtures/notify-agent-turn-complete.txt', import.meta.url);

test('Codex hooks and notify; the thread id names the session', () => {
  const line = readFileSync(NOTIFY, 'utf8');
  const notify = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
  assert.deepEqual(codexHooks.transition('notify', notify), { status: 'idle', waitingFor: null });
  assert.equal(codexHooks.sessionIdOf(notify), notify['thread-id']);
  assert.deepEqual(codexHooks.transition('PermissionRequest', { tool_name: 'Bash' }), { status: 'waiting', waitingFor: 'permission: Bash' });
  assert.equal(codexHooks.transition('PreToolUse', {})?.status, 'working');
  assert.equal(codexHooks.transition('SessionEnd', {})?.status, 'ended');
  assert.equal(codexHooks.turnEnd?.event, 'Stop');
});
