import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { copilotHooks } from './hooks.ts';

/**
 * Real hook stdin payloads Copilot CLI 1.0.102 sent to a plugin's hooks (fixtures/, copied from an
 * interactive run against the fake model: a bash call approved at its prompt, then /exit).
 */
const SAMPLES = new URL('./fixtures/hooks-stdin-samples.jsonl', import.meta.url);

test('Copilot: the real hook payloads map to their statuses, in the order they came', () => {
  const seen: string[] = [];
  for (const line of readFileSync(SAMPLES, 'utf8').split('\n').filter(Boolean)) {
    const { event, stdin } = JSON.parse(line) as { event: string; stdin: Record<string, unknown> };
    const t = copilotHooks.transition(event, stdin);
    seen.push(`${event}:${t ? `${t.status}${t.waitingFor ? `(${t.waitingFor})` : ''}` : '-'}`);
    assert.equal(copilotHooks.sessionIdOf(stdin), '76bf054c-934b-4a83-88dd-d0f2b22004a5');
  }
  assert.deepEqual(seen, [
    'sessionStart:idle',
    'userPromptSubmitted:working',
    'userPromptTransformed:-',
    'preToolUse:working',
    // Fires under --allow-all-tools too, with no prompt on screen: not a wait by itself.
    'permissionRequest:-',
    'notification:waiting(Run command: echo perm > p.txt)',
    'postToolUse:working',
    'agentStop:idle',
    'sessionEnd:ended',
  ]);
});

test('agentStop is the turn end; Copilot honours 8 blocks in a row', () => {
  assert.deepEqual(copilotHooks.turnEnd, { event: 'agentStop', viaWrapper: true, defaultBlockCap: 8 });
  assert.equal(copilotHooks.transition('notification', { notification_type: 'elicitation' }), null);
  assert.deepEqual(copilotHooks.transition('notification', { notification_type: 'permission_prompt' }), { status: 'waiting', waitingFor: 'permission prompt' });
});
