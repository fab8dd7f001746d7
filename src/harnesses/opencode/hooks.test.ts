import { test } from 'node:test';
import assert from 'node:assert/strict';
import { opencodeHooks } from './hooks.ts';

test('OpenCode plugin events → status; wrong shapes are ignored, not thrown on', () => {
  assert.equal(opencodeHooks.transition('session.status', { status: { type: 'busy' } })?.status, 'working');
  assert.equal(opencodeHooks.transition('session.status', { status: { type: 'idle' } })?.status, 'idle');
  assert.deepEqual(opencodeHooks.transition('permission.asked', { permission: 'bash' }), { status: 'waiting', waitingFor: 'permission: bash' });
  assert.equal(opencodeHooks.transition('session.status', { status: 'garbage' }), null);
  assert.equal(opencodeHooks.sessionIdOf({ sessionID: 'ses_x' }), 'ses_x');
});
