import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyRecord, emptySummary } from './transcript-summary.ts';
import type { TranscriptSummary } from './transcript-summary.ts';
import { deriveStatus } from './transcript-status.ts';
import { assistant, header, ompExit, ompToolStart, toolResult, user } from './fixture-records.test-support.ts';

const ID = '01a22b3e-7108-72cf-96ba-1191d1508086';
const T0 = Date.parse('2026-11-30T07:00:00.000Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();
const fold = (records: object[]): TranscriptSummary => records.reduce<TranscriptSummary>((s, r) => applyRecord(s, r), emptySummary());
const base = [header(ID, '/p', at(0))];
const live = (s: TranscriptSummary, nowS: number, exact: { state: 'busy' | 'idle'; since: string | null } | null = null) =>
  deriveStatus(s, { live: true, now: T0 + nowS * 1000, stuckAfterMs: 600_000, exact });

describe('pi/omp status', () => {
  it('a dormant session is ended, since its last exit or activity', () => {
    const s = fold([...base, user('hi', at(1)), assistant({ ts: at(2), text: 'x' }), ompExit(at(3))]);
    assert.deepEqual(deriveStatus(s, { live: false, now: T0, stuckAfterMs: 1 }), { status: 'ended', waitingFor: null, statusSince: at(3) });
  });

  it('working from a prompt, a tool call, a tool start or a tool result until the answer ends the turn', () => {
    const steps: [object, string][] = [
      [user('hi', at(1)), 'working'],
      [assistant({ ts: at(2), calls: [{ id: 'c1', name: 'bash', arguments: { command: 'sleep 1' } }] }), 'working'],
      [ompToolStart('c1', at(3)), 'working'],
      [toolResult('c1', 'ok', at(4)), 'working'],
      [assistant({ ts: at(5), text: 'done' }), 'idle'],
    ];
    const s = fold(base);
    for (const [rec, want] of steps) {
      applyRecord(s, rec);
      assert.equal(live(s, 6).status, want, JSON.stringify(rec).slice(0, 80));
    }
    assert.equal(live(s, 6).statusSince, at(5));
  });

  it('a working turn reports when it began', () => {
    const s = fold([...base, user('hi', at(1)), assistant({ ts: at(2), calls: [{ id: 'c1', name: 'bash', arguments: {} }] })]);
    assert.equal(live(s, 3).statusSince, at(1));
  });

  it('an aborted or failed answer is idle, not working', () => {
    const s = fold([...base, user('hi', at(1)), assistant({ ts: at(2), text: '', stopReason: 'aborted' })]);
    assert.equal(live(s, 3).status, 'idle');
  });

  it('waiting with the question while omp ask is pending', () => {
    const s = fold([...base, user('hi', at(1)), assistant({ ts: at(2), calls: [{ id: 'c1', name: 'ask', arguments: { question: 'Ship it?' } }] })]);
    assert.deepEqual(live(s, 3), { status: 'waiting', waitingFor: 'question: Ship it?', statusSince: at(2) });
  });

  it('stuck when a working session writes nothing for longer than the limit, naming the running tool', () => {
    const s = fold([...base, user('hi', at(1)), assistant({ ts: at(2), calls: [{ id: 'c1', name: 'bash', arguments: { command: 'make test' } }] })]);
    assert.equal(live(s, 500).status, 'working');
    const st = live(s, 2 + 11 * 60);
    assert.equal(st.status, 'stuck');
    assert.equal(st.waitingFor, 'no transcript activity for 11 min while running bash (make test)');
  });

  it('an idle session is never stuck, however long it sleeps', () => {
    const s = fold([...base, user('hi', at(1)), assistant({ ts: at(2), text: 'done' })]);
    assert.equal(live(s, 99_999).status, 'idle');
  });

  it('the exact busy/idle of the status extension wins over the transcript', () => {
    const idleFile = fold([...base, user('hi', at(1)), assistant({ ts: at(2), text: 'done' })]);
    assert.equal(live(idleFile, 3, { state: 'busy', since: at(3) }).status, 'working');
    const busyFile = fold([...base, user('hi', at(1))]);
    assert.deepEqual(live(busyFile, 3, { state: 'idle', since: at(2) }), { status: 'idle', waitingFor: null, statusSince: at(2) });
  });

  it('a live session after an exit record (resumed, nothing said yet) is idle', () => {
    const s = fold([...base, user('hi', at(1)), assistant({ ts: at(2), text: 'x' }), ompExit(at(3))]);
    assert.equal(live(s, 4).status, 'idle');
  });
});
