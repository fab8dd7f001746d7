import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMusterError } from '../../errors/index.ts';
import { acquireLock } from './acquire.ts';
import { defaultLockOperations } from './operations.ts';
import { IDENTITY, OUR_PID, errno, fakeWorld, makeRecord, tempLock, ticks, writeRecordFile } from './lock-fakes.test-support.ts';

/** Asserts `p` rejects with a MusterError of `code`; returns it for further checks. */
async function rejectsWith(p: Promise<unknown>, code: string) {
  try {
    await p;
  } catch (e) {
    assert.ok(isMusterError(e), `expected a MusterError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}, but it resolved`);
}

describe('acquireLock: claiming', () => {
  it('claims a free lock with a full record, mode 0600, and nothing else left behind', async () => {
    const lock = tempLock();
    const world = fakeWorld();
    const handle = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
    const onDisk: unknown = JSON.parse(readFileSync(lock.lockPath, 'utf8'));
    assert.deepEqual(onDisk, handle.record);
    assert.equal(handle.record.epoch, 'starting');
    assert.equal(handle.record.pid, OUR_PID);
    assert.equal(handle.record.runtime, 'node');
    assert.deepEqual(handle.record.ownerStartedAt, ticks(100));
    assert.match(handle.record.holder, /^[A-Za-z0-9_-]{12}$/);
    assert.equal(statSync(lock.lockPath).mode & 0o777, 0o600);
    assert.deepEqual(lock.names(), ['muster.db.lock']);
    lock.dispose();
  });

  it('gives every acquisition its own holder token', async () => {
    const lock = tempLock();
    const world = fakeWorld();
    const a = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
    a.release();
    const b = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
    assert.notEqual(a.record.holder, b.record.holder);
    lock.dispose();
  });

  it('records its own start instant when the start time cannot be read', async () => {
    const lock = tempLock();
    const world = fakeWorld({ startTime: () => null });
    const handle = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
    assert.deepEqual(handle.record.ownerStartedAt, { kind: 'instant', ms: Math.round(performance.timeOrigin) });
    lock.dispose();
  });

  it('refuses an identity a reader would refuse', async () => {
    const lock = tempLock();
    await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: { ...IDENTITY, protocolVersion: 0 }, ops: fakeWorld().ops }), 'invalid_argument');
    assert.deepEqual(lock.names(), []);
    lock.dispose();
  });
});

describe('acquireLock: a live owner is never displaced', () => {
  it('fails with already_running for the same build', async () => {
    const lock = tempLock();
    const text = writeRecordFile(lock.lockPath, makeRecord());
    const world = fakeWorld();
    world.processes.set(4242, ticks(500));
    const e = await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops }), 'already_running');
    assert.equal(e.message, 'muster is already running (pid 4242)');
    assert.deepEqual(e.details, { pid: 4242 });
    assert.equal(readFileSync(lock.lockPath, 'utf8'), text);
    assert.deepEqual(lock.names(), ['muster.db.lock']);
    lock.dispose();
  });

  it('fails with owned_by_other_build for another build, naming pid, build and `muster down`', async () => {
    const lock = tempLock();
    const text = writeRecordFile(lock.lockPath, makeRecord({ buildId: 'muster@0.0.9' }));
    const world = fakeWorld();
    world.processes.set(4242, ticks(500));
    const e = await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops }), 'owned_by_other_build');
    assert.match(e.message, /pid 4242/);
    assert.match(e.message, /muster@0\.0\.9/);
    assert.match(e.message, /`muster down`.*retry/);
    assert.deepEqual(e.details, { pid: 4242, buildId: 'muster@0.0.9' });
    assert.equal(readFileSync(lock.lockPath, 'utf8'), text);
    lock.dispose();
  });

  it('treats a live record it cannot fully validate (a future layout) as another build', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, JSON.stringify({ ...makeRecord({ buildId: 'muster@2.0.0' }), runtime: 'bun', ownerStartedAt: 'x' }));
    const world = fakeWorld();
    world.processes.set(4242, ticks(500));
    const e = await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops }), 'owned_by_other_build');
    assert.deepEqual(e.details, { pid: 4242, buildId: 'muster@2.0.0' });
    lock.dispose();
  });

  it('counts unexplained start-time disagreement as the same process', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, makeRecord());
    const world = fakeWorld();
    for (const now of [ticks(500, 1_700_000_000_000 + 999), { kind: 'instant' as const, ms: 1 }]) {
      world.processes.set(4242, now);
      await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops }), 'already_running');
    }
    world.processes.set(4242, ticks(500));
    world.ops.startTime = () => null;
    await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops }), 'already_running');
    lock.dispose();
  });

  it('default liveness: only ESRCH is dead; EPERM (another user\'s process) is alive', (t) => {
    let code = 'EPERM';
    const kill = t.mock.method(process, 'kill', (pid: number) => {
      throw errno(code, 'kill', String(pid));
    });
    assert.equal(defaultLockOperations.liveness(77), 'alive');
    code = 'ESRCH';
    assert.equal(defaultLockOperations.liveness(77), 'dead');
    assert.equal(defaultLockOperations.liveness(0), 'dead', 'never probes a process group');
    assert.equal(defaultLockOperations.liveness(-77), 'dead');
    assert.equal(kill.mock.callCount(), 2);
    assert.deepEqual(kill.mock.calls[0]?.arguments, [77, 0]);
  });
});

describe('acquireLock: stale owners are reclaimed', () => {
  it('reclaims the lock of a dead pid', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, makeRecord());
    const world = fakeWorld();
    const handle = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
    assert.equal(JSON.parse(readFileSync(lock.lockPath, 'utf8')).holder, handle.record.holder);
    assert.deepEqual(lock.names(), ['muster.db.lock'], 'no .reclaim or staging left');
    lock.dispose();
  });

  it('reclaims when the pid was reused (same kind, other ticks)', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, makeRecord());
    const world = fakeWorld();
    world.processes.set(4242, ticks(9999));
    const handle = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
    assert.equal(handle.stillHeld(), true);
    lock.dispose();
  });

  it('waits ~20 ms once for an unreadable lock, then reclaims it', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, '{"pid": 42');
    const world = fakeWorld();
    const handle = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
    assert.deepEqual(world.sleeps, [20]);
    assert.equal(handle.stillHeld(), true);
    lock.dispose();
  });

  it('judges an unreadable lock again after the wait (a foreign writer finished meanwhile)', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, '');
    const world = fakeWorld();
    world.processes.set(4242, ticks(500));
    world.onSleep = () => writeRecordFile(lock.lockPath, makeRecord());
    await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops }), 'already_running');
    lock.dispose();
  });

  it('retries when the lock vanished between the claim and the look', async () => {
    const lock = tempLock();
    const world = fakeWorld();
    let links = 0;
    world.ops.link = (from, to) => {
      links += 1;
      if (links === 1) throw errno('EEXIST', 'link', to);
      defaultLockOperations.link(from, to);
    };
    const handle = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
    assert.equal(links, 2);
    assert.equal(handle.stillHeld(), true);
    lock.dispose();
  });
});

describe('acquireLock: failures', () => {
  it('gives up after the bounded attempts, naming the file that kept blocking', async () => {
    const lock = tempLock();
    const world = fakeWorld();
    let links = 0;
    // The lock "exists" at every claim but is gone at every look: a pathological churn.
    world.ops.link = (_from, to) => {
      links += 1;
      throw errno('EEXIST', 'link', to);
    };
    const e = await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops }), 'lock_blocked');
    assert.equal(links, 5, 'default: 5 attempts');
    assert.deepEqual(e.details, { file: lock.lockPath });
    assert.ok(e.message.includes(lock.lockPath));
    links = 0;
    await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops, maxAttempts: 2 }), 'lock_blocked');
    assert.equal(links, 2);
    assert.deepEqual(lock.names(), [], 'staging files removed after each attempt');
    lock.dispose();
  });

  it('fails with lock_io naming the path when the directory is missing', async () => {
    const lock = tempLock();
    const path = join(lock.dir, 'nope', 'muster.db.lock');
    const e = await rejectsWith(acquireLock({ lockPath: path, identity: IDENTITY, pid: OUR_PID, ops: fakeWorld().ops }), 'lock_io');
    assert.ok(e.message.includes(join(lock.dir, 'nope')));
    assert.match(e.message, /ENOENT/);
    lock.dispose();
  });

  it('fails with lock_io when the filesystem refuses hard links, leaving no staging file', async () => {
    const lock = tempLock();
    const world = fakeWorld();
    world.ops.link = (_from, to) => {
      throw errno('EPERM', 'link', to);
    };
    const e = await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops }), 'lock_io');
    assert.match(e.message, /hard links/);
    assert.deepEqual(lock.names(), []);
    lock.dispose();
  });

  it('fails with lock_io, not a reclaim, when the lock cannot be read', async () => {
    const lock = tempLock();
    mkdirSync(lock.lockPath);
    await rejectsWith(acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: fakeWorld().ops }), 'lock_io');
    assert.ok(statSync(lock.lockPath).isDirectory());
    lock.dispose();
  });
});
