import { test } from 'node:test';
import assert from 'node:assert/strict';
import { familyHooks } from './family.ts';
import { pi } from './index.ts';
import { omp } from '../omp/index.ts';

test('pi/omp extension events → status', () => {
  assert.equal(familyHooks.transition('agent_start', {})?.status, 'working');
  assert.equal(familyHooks.transition('agent_end', {})?.status, 'idle');
  assert.equal(familyHooks.transition('session_shutdown', {})?.status, 'ended');
  assert.equal(familyHooks.sessionIdOf({ sessionId: 'x' }), 'x');
});

test('headless turns: pi continues with --session, omp with --resume; a prompt starting with "-" is not read as a flag', () => {
  assert.deepEqual(pi.headless.command({ prompt: 'go' }).argv, ['pi', '-p', '--mode', 'json', 'go']);
  assert.deepEqual(pi.headless.command({ prompt: '-x', sessionId: 'S' }).argv, ['pi', '-p', '--mode', 'json', '--session', 'S', ' -x']);
  assert.deepEqual(omp.headless.command({ prompt: 'go', sessionId: 'S' }).argv, ['omp', '-p', '--mode', 'json', '--resume', 'S', 'go']);
});
