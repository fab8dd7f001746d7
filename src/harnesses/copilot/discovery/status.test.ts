import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptySummary, type EventsSummary } from './events.ts';
import { deriveStatus } from './status.ts';

const T0 = Date.parse('2026-12-01T12:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

function summary(patch: Partial<EventsSummary>): EventsSummary {
  return { ...emptySummary(), records: 3, lastActivityAt: at(10), last: { kind: 'turnEnd', at: at(10) }, ...patch };
}

const base = { processStartMs: T0, now: T0 + 20_000, stuckAfterMs: 15 * 60_000 };

test('dormant is ended, whatever the files say', () => {
  const s = summary({ pending: [{ requestId: 'r', why: 'permission: shell', at: at(5) }] });
  assert.deepEqual(deriveStatus({ ...base, live: false, summary: s, open: { working: true, refreshedAt: at(5) } }), { status: 'ended', waitingFor: null, statusSince: at(10) });
});

test('live: an open permission prompt waits; open-sessions-state says working or idle; the events when it has no entry', () => {
  const asking = summary({ pending: [{ requestId: 'r', why: 'permission: shell (ls)', at: at(8) }] });
  assert.deepEqual(deriveStatus({ ...base, live: true, summary: asking, open: { working: true, refreshedAt: at(7) } }), { status: 'waiting', waitingFor: 'permission: shell (ls)', statusSince: at(8) });
  assert.equal(deriveStatus({ ...base, live: true, summary: summary({}), open: { working: true, refreshedAt: at(12) } }).status, 'working');
  assert.deepEqual(deriveStatus({ ...base, live: true, summary: summary({}), open: { working: false, refreshedAt: at(12) } }), { status: 'idle', waitingFor: null, statusSince: at(12) });
  assert.equal(deriveStatus({ ...base, live: true, summary: summary({ last: { kind: 'tool', at: at(10) } }), open: null }).status, 'working');
  assert.equal(deriveStatus({ ...base, live: true, summary: null, open: null }).status, 'idle', 'a new session before its first prompt');
});

test('what a killed predecessor left (a prompt, a working entry) is not the live process\'s state', () => {
  const later = { ...base, processStartMs: T0 + 60_000, now: T0 + 70_000 };
  const left = summary({ pending: [{ requestId: 'r', why: 'permission: shell', at: at(8) }], last: { kind: 'tool', at: at(8) } });
  assert.deepEqual(deriveStatus({ ...later, live: true, summary: left, open: { working: true, refreshedAt: at(8) } }), { status: 'idle', waitingFor: null, statusSince: at(8) });
});

test('working and silent past the bound is stuck, with the silence named', () => {
  const r = deriveStatus({ ...base, now: T0 + 20 * 60_000, live: true, summary: summary({ last: { kind: 'tool', at: at(10) } }), open: { working: true, refreshedAt: at(10) } });
  assert.equal(r.status, 'stuck');
  assert.match(String(r.waitingFor), /no session activity for 19 min/);
});
