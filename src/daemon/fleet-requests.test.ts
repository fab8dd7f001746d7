// Another host's command as a request to this daemon's own API: only the listed routes, only their
// fields, and ids that are not well formed answered before they become part of a path.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { fleetRequest } from './fleet-requests.ts';

const PAGE = 'pag_01JB2Z3Y4X5W6V7T8S9R0QPNMK';
const SESSION = 'a1a1a1a1-0000-4000-8000-000000000001';

it('maps each command to its route with only that route\'s fields', () => {
  assert.deepEqual(fleetRequest('page.answer', { pageId: PAGE, text: 'yes', extra: 'dropped' }), { method: 'POST', path: `/api/pages/${PAGE}/answer`, body: { text: 'yes' } });
  assert.deepEqual(fleetRequest('session.end', { sessionId: SESSION, pid: 42, signal: 'KILL' }), { method: 'POST', path: '/api/end', body: { sessionId: SESSION, pid: 42, via: 'fleet' } });
  assert.deepEqual(fleetRequest('goal.resume', { ref: SESSION, prompt: 'go on' }), { method: 'POST', path: `/api/goals/${SESSION}/resume`, body: { prompt: 'go on' } });
  assert.deepEqual(fleetRequest('goal.clear', { ref: SESSION }), { method: 'POST', path: `/api/goals/${SESSION}/clear` });
  assert.deepEqual(fleetRequest('session.send', { harness: 'claude', sessionId: SESSION, text: 'go on', pid: 7, via: 'board' }), { method: 'POST', path: `/api/sessions/claude/${SESSION}/send`, body: { text: 'go on', pid: 7, via: 'fleet' } });
});

it('an id that is not well formed never becomes part of a path', () => {
  for (const [kind, args] of [['page.answer', { pageId: '../settings' }], ['page.dismiss', { pageId: 42 }], ['goal.pause', { ref: '../../fleet/leave' }], ['session.send', { harness: 'claude', sessionId: '../../settings' }]] as const) {
    const r = fleetRequest(kind, args);
    assert.ok('answer' in r, kind);
    assert.equal(r.answer.status, 400);
    assert.equal((r.answer.body as { error: { code: string } }).error.code, 'invalid_id');
  }
  const badHarness = fleetRequest('session.send', { harness: '../api', sessionId: SESSION, text: 'x' });
  assert.ok('answer' in badHarness && (badHarness.answer.body as { error: { code: string } }).error.code === 'invalid_argument');
  // A body id is checked by the route itself, as for any local request (session.end → 400 invalid_id there).
  assert.deepEqual(fleetRequest('session.end', { sessionId: '../../etc/passwd' }), { method: 'POST', path: '/api/end', body: { sessionId: '../../etc/passwd', via: 'fleet' } });
});
