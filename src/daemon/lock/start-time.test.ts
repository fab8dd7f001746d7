import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createStartTimeReader, parseBootTimeMs, parseStatStartTicks, realStartTime, startTimesDisagree } from './start-time.ts';
import { tempLock, ticks } from './lock-fakes.test-support.ts';
import { createFakePs, withPathAndZone } from '../../../test/fakes/fake-ps.ts';

/** A /proc/<pid>/stat line with `comm` and start ticks `n` in field 22. */
function statLine(pid: number, comm: string, n: number): string {
  // Fields 3..21 are 19 values, then field 22.
  const middle = ['S', ...Array.from({ length: 18 }, (_, i) => String(i + 1))];
  return `${pid} (${comm}) ${middle.join(' ')} ${n} 12345 678 ${'0 '.repeat(20)}\n`;
}

describe('proc parsing', () => {
  it('reads field 22 even when comm holds spaces and parentheses', () => {
    assert.equal(parseStatStartTicks(statLine(7, 'we) ird (name', 987654)), 987654);
    assert.equal(parseStatStartTicks('7 (short) S 1 2'), null);
    assert.equal(parseStatStartTicks('no parens'), null);
  });

  it('reads btime from /proc/stat', () => {
    assert.equal(parseBootTimeMs('cpu 1 2 3\nbtime 1700000000\nprocesses 9\n'), 1_700_000_000_000);
    assert.equal(parseBootTimeMs('cpu 1 2 3\n'), null);
  });
});

describe('createStartTimeReader', () => {
  it('reads boot time + ticks from a fixture /proc root on Linux', () => {
    const tmp = tempLock();
    mkdirSync(join(tmp.dir, '77'));
    writeFileSync(join(tmp.dir, '77', 'stat'), statLine(77, 'node', 4321));
    writeFileSync(join(tmp.dir, 'stat'), 'btime 1700000000\n');
    const read = createStartTimeReader({ platform: 'linux', procRoot: tmp.dir });
    assert.deepEqual(read(77), { kind: 'linux-ticks', bootTimeMs: 1_700_000_000_000, ticks: 4321 });
    assert.equal(read(78), null, 'no such process');
    assert.equal(read(0), null, 'not a pid');
    tmp.dispose();
  });

  it('reads the start instant from ps elsewhere, null when ps has no answer', () => {
    const answers = new Map([[5, 'Sun Nov 30 07:47:12 2025\n'], [6, 'garbage']]);
    const read = createStartTimeReader({ platform: 'darwin', psLstart: (pid) => answers.get(pid) ?? null });
    assert.deepEqual(read(5), { kind: 'instant', ms: Date.UTC(2025, 10, 30, 7, 47, 12) }, 'ps prints lstart in UTC');
    assert.equal(read(6), null);
    assert.equal(read(7), null);
  });

  it('the real ps reader runs ps with LC_ALL=C and TZ=UTC, whatever the zone here (issue 13, point 20)', () => {
    const ps = createFakePs('Tue Dec  1 12:00:00 2026');
    try {
      const got = withPathAndZone(ps.dir, 'America/New_York', () => createStartTimeReader({ platform: 'darwin' })(4242));
      assert.deepEqual(got, { kind: 'instant', ms: Date.UTC(2026, 11, 1, 12) });
      assert.deepEqual(ps.calls(), ['TZ=UTC LC_ALL=C']);
    } finally {
      ps.cleanup();
    }
  });
});

describe('realStartTime on this host', () => {
  it('reads a live child, stays stable, and is null once the child is reaped', async (t) => {
    if (process.platform !== 'linux' && process.platform !== 'darwin') {
      t.skip(`no start-time source on ${process.platform}`);
      return;
    }
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    const pid = child.pid ?? 0;
    const first = realStartTime(pid);
    assert.notEqual(first, null);
    assert.equal(first?.kind, process.platform === 'linux' ? 'linux-ticks' : 'instant');
    assert.equal(startTimesDisagree(first, realStartTime(pid)), false, 'two readings of one process agree');
    if (process.platform === 'linux') {
      // The test runner started seconds before the child: a different tick count.
      assert.equal(startTimesDisagree(first, realStartTime(process.pid)), true, 'another process reads differently');
    }
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal(realStartTime(pid), null);
  });
});

describe('startTimesDisagree (only proven disagreement counts)', () => {
  const cases: Array<[string, Parameters<typeof startTimesDisagree>, boolean]> = [
    ['same ticks', [ticks(5), ticks(5)], false],
    ['other ticks', [ticks(5), ticks(6)], true],
    ['same ticks, boot time jittered', [ticks(5, 1000), ticks(5, 2000)], false],
    ['different kinds', [ticks(5), { kind: 'instant', ms: 5 }], false],
    ['unreadable now', [ticks(5), null], false],
    ['nothing recorded', [null, ticks(5)], false],
    ['instants within ps resolution', [{ kind: 'instant', ms: 10_000 }, { kind: 'instant', ms: 11_500 }], false],
    ['instants far apart', [{ kind: 'instant', ms: 10_000 }, { kind: 'instant', ms: 70_000 }], true],
  ];
  for (const [name, args, expected] of cases) {
    it(name, () => assert.equal(startTimesDisagree(...args), expected));
  }
});
