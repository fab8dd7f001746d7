import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assignLive } from './live-assign.ts';
import type { AssignableTranscript, LiveProcess } from './live-assign.ts';

const A = '01a22b3e-0000-7000-8000-00000000000a';
const B = '01a22b3e-0000-7000-8000-00000000000b';
const C = '01a22b3f-0000-7000-8000-00000000000c';
const t = (id: string, cwd: string, mtimeMs: number): AssignableTranscript => ({ id, path: `/s/${id}.jsonl`, cwd, mtimeMs });
const p = (pid: number, startedAtMs: number, cwd: string | null, extra: Partial<LiveProcess> = {}): LiveProcess => ({ pid, startedAtMs, cwd, claimIds: [], claimFiles: [], ...extra });

describe('live assignment of pi/omp processes to sessions', () => {
  const files = [t(A, '/w', 1000), t(B, '/w', 5000), t(C, '/x', 9000)];

  it('an exact claim (id, unique prefix or file) wins over the cwd guess', () => {
    const m = assignLive([p(1, 100, '/w', { claimIds: ['01a22b3e-0000-7000-8000-00000000000a'] }), p(2, 100, '/x', { claimFiles: [`/s/${B}.jsonl`] })], files);
    assert.deepEqual(m.get(A), { pids: [1], exact: true, exactState: null, ambiguous: false });
    assert.deepEqual(m.get(B)?.pids, [2]);
    assert.equal(m.get(C), undefined, 'process 2 named its session: no guess for it');
    assert.deepEqual(assignLive([p(1, 100, '/w', { claimIds: ['01a22b3f'] })], files).get(C)?.pids, [1], 'unique prefix');
    assert.equal(assignLive([p(1, 100, null, { claimIds: ['01a22b3e'] })], files).size, 0, 'an ambiguous prefix claims nothing');
  });

  it('a guess takes the newest session of the cwd written since the process started', () => {
    assert.deepEqual([...assignLive([p(1, 4000, '/w')], files).keys()], [B]);
    assert.equal(assignLive([p(1, 8000, '/w')], files).size, 0, 'files older than the process are not its sessions');
  });

  it('two processes in one cwd take different sessions and the guesses are marked ambiguous', () => {
    const m = assignLive([p(1, 500, '/w'), p(2, 600, '/w')], files);
    assert.deepEqual(m.get(B)?.pids, [2], 'the newest process gets the newest file');
    assert.deepEqual(m.get(A)?.pids, [1]);
    assert.equal(m.get(A)?.ambiguous, true);
    assert.equal(m.get(B)?.ambiguous, true);
  });

  it('two processes exactly on one session are both owners', () => {
    const m = assignLive([p(1, 1, '/w', { claimIds: [B], exact: { state: 'busy', since: null } }), p(2, 2, '/w', { claimIds: [B] })], files);
    assert.deepEqual(m.get(B)?.pids.sort(), [1, 2]);
    assert.deepEqual(m.get(B)?.exactState, { state: 'busy', since: null });
  });

  it('is deterministic whatever the input order', () => {
    const procs = [p(1, 500, '/w'), p(2, 600, '/w'), p(3, 10, '/x')];
    const want = JSON.stringify([...assignLive(procs, files)].sort());
    assert.equal(JSON.stringify([...assignLive([...procs].reverse(), [...files].reverse())].sort()), want);
  });
});
