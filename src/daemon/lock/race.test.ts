/**
 * Real processes racing for one lock (the other lock tests inject the OS; this one does not).
 * Ten children contend at once, several rounds, on a free lock and on stale ones.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { realStartTime } from './start-time.ts';
import { makeRecord, tempLock, writeRecordFile } from './lock-fakes.test-support.ts';

const CHILDREN = 10;
const WAIT_MS = 60_000;
const childScript = fileURLToPath(new URL('./race-child.test-support.ts', import.meta.url));

interface Report { pid: number; outcome: string; details?: unknown }

/** A child with its stdout split into JSON reports, awaited one at a time. */
function contender(lockPath: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', childScript, lockPath], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const reports: Report[] = [];
  const waiters: Array<(r: Report) => void> = [];
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    let i: number;
    while ((i = buffered.indexOf('\n')) >= 0) {
      const report = JSON.parse(buffered.slice(0, i)) as Report;
      buffered = buffered.slice(i + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(report);
      else reports.push(report);
    }
  });
  const next = (): Promise<Report> =>
    new Promise((resolve, reject) => {
      const queued = reports.shift();
      if (queued) return resolve(queued);
      const timer = setTimeout(() => reject(new Error(`child ${child.pid} silent; stderr: ${stderr}`)), WAIT_MS);
      waiters.push((r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
  const send = (command: string): void => void child.stdin.write(`${command}\n`);
  return { child, next, send };
}

/** A pid that certainly belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid ?? assert.fail('no pid');
}

describe('real processes racing for the lock', () => {
  const lock = tempLock();
  let contenders: Array<ReturnType<typeof contender>> = [];

  before(async () => {
    contenders = Array.from({ length: CHILDREN }, () => contender(lock.lockPath));
    for (const c of contenders) assert.equal((await c.next()).outcome, 'ready');
  });

  after(async () => {
    for (const c of contenders) c.child.stdin.end();
    await Promise.all(contenders.map((c) => (c.child.exitCode === null ? once(c.child, 'exit') : null)));
    lock.dispose();
  });

  /** Everyone goes at once; exactly one wins, the rest see it running; then it releases cleanly. */
  async function round(): Promise<void> {
    for (const c of contenders) c.send('go');
    const results = await Promise.all(contenders.map((c) => c.next()));
    const winners = results.filter((r) => r.outcome === 'won');
    assert.equal(winners.length, 1, JSON.stringify(results));
    const winner = winners[0] as Report;
    for (const r of results.filter((x) => x !== winner)) {
      assert.equal(r.outcome, 'already_running', JSON.stringify(r));
      assert.deepEqual(r.details, { pid: winner.pid });
    }
    assert.deepEqual(lock.names(), ['muster.db.lock'], 'no staging or .reclaim file left');
    const holder = contenders.find((c) => c.child.pid === winner.pid) ?? assert.fail('winner not found');
    holder.send('release');
    assert.equal((await holder.next()).outcome, 'released');
    assert.deepEqual(lock.names(), []);
  }

  it('free lock: one winner per round, three rounds', async () => {
    for (let i = 0; i < 3; i++) await round();
  });

  it('stale lock of a dead pid (with a crashed attempt\'s staging file): one reclaimer wins', async () => {
    for (let i = 0; i < 2; i++) {
      const pid = await deadPid();
      writeRecordFile(lock.lockPath, makeRecord({ pid, buildId: 'muster@0.0.0-race' }));
      writeFileSync(`${lock.lockPath}.${pid}.crashed.tmp`, '{"pid"');
      await round();
    }
  });

  it('stale lock whose pid was reused by a live process: one reclaimer wins', async () => {
    const now = realStartTime(process.pid) ?? assert.fail('no start time on this host');
    // The test runner is alive, but the record says it started at another time: pid reuse.
    const recorded = now.kind === 'linux-ticks' ? { ...now, ticks: now.ticks + 1 } : { ...now, ms: now.ms - 60_000 };
    writeRecordFile(lock.lockPath, makeRecord({ pid: process.pid, ownerStartedAt: recorded }));
    await round();
  });
});
