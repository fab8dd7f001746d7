import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { isMusterError } from '../../errors/index.ts';
import { acquireLock } from './acquire.ts';
import { readLock } from './read-lock.ts';
import { ENDPOINTS, IDENTITY, OUR_PID, errno, fakeWorld, makeRecord, tempLock, writeRecordFile } from './lock-fakes.test-support.ts';

async function held(fs: Parameters<typeof fakeWorld>[0] = {}) {
  const lock = tempLock();
  const world = fakeWorld(fs);
  const handle = await acquireLock({ lockPath: lock.lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });
  return { lock, world, handle };
}

function throwsCode(fn: () => void, code: string): void {
  assert.throws(fn, (e: unknown) => isMusterError(e) && e.code === code);
}

describe('LockHandle.publish', () => {
  it('writes epoch ready with the endpoints by rename; readers then find the daemon usable', async () => {
    const { lock, world, handle } = await held();
    const holder = handle.record.holder;
    handle.publish(ENDPOINTS);
    assert.equal(handle.record.epoch, 'ready');
    assert.deepEqual(handle.record.endpoints, ENDPOINTS);
    assert.equal(handle.record.holder, holder, 'same acquisition');
    assert.deepEqual(JSON.parse(readFileSync(lock.lockPath, 'utf8')), handle.record);
    assert.equal(statSync(lock.lockPath).mode & 0o777, 0o600);
    assert.deepEqual(lock.names(), ['muster.db.lock'], 'no staging file left');
    const reading = readLock(lock.lockPath, IDENTITY, world.ops);
    assert.ok(reading.state === 'record' && reading.usable);
    lock.dispose();
  });

  it('throws lock_lost, and writes nothing, when another holder replaced the lock', async () => {
    const { lock, handle } = await held();
    const theirs = writeRecordFile(lock.lockPath, makeRecord({ pid: 4242, holder: 'new-owner' }));
    throwsCode(() => handle.publish(ENDPOINTS), 'lock_lost');
    assert.equal(readFileSync(lock.lockPath, 'utf8'), theirs);
    assert.equal(handle.record.epoch, 'starting');
    lock.dispose();
  });

  it('throws lock_lost when the lock was removed', async () => {
    const { lock, handle } = await held();
    rmSync(lock.lockPath);
    throwsCode(() => handle.publish(ENDPOINTS), 'lock_lost');
    assert.deepEqual(lock.names(), []);
    lock.dispose();
  });

  it('refuses endpoints a reader would refuse', async () => {
    const { lock, handle } = await held();
    const before = readFileSync(lock.lockPath, 'utf8');
    throwsCode(() => handle.publish({ ...ENDPOINTS, api: 'http://0.0.0.0:6878/api' }), 'invalid_argument');
    assert.equal(readFileSync(lock.lockPath, 'utf8'), before);
    lock.dispose();
  });

  it('reports a failed rename as lock_io and cleans its staging file', async () => {
    // The handle keeps the operations it was acquired with, so the failure is injected up front.
    const { lock, handle } = await held({
      rename: (_from, to) => {
        throw errno('EXDEV', 'rename', to);
      },
    });
    throwsCode(() => handle.publish(ENDPOINTS), 'lock_io');
    assert.deepEqual(lock.names(), ['muster.db.lock']);
    lock.dispose();
  });
});

describe('LockHandle.stillHeld and release', () => {
  it('stillHeld follows the holder token on disk', async () => {
    const { lock, handle } = await held();
    assert.equal(handle.stillHeld(), true);
    handle.publish(ENDPOINTS);
    assert.equal(handle.stillHeld(), true, 'publishing keeps our token');
    writeRecordFile(lock.lockPath, makeRecord({ holder: 'someone-else' }));
    assert.equal(handle.stillHeld(), false);
    rmSync(lock.lockPath);
    assert.equal(handle.stillHeld(), false);
    lock.dispose();
  });

  it('release removes our lock, is idempotent, and ends the handle', async () => {
    const { lock, handle } = await held();
    handle.release();
    assert.deepEqual(lock.names(), []);
    handle.release();
    assert.equal(handle.stillHeld(), false);
    throwsCode(() => handle.publish(ENDPOINTS), 'lock_lost');
    assert.deepEqual(lock.names(), []);
    lock.dispose();
  });

  it('release of a lock we no longer hold leaves the new owner\'s record alone', async () => {
    const { lock, handle } = await held();
    const theirs = writeRecordFile(lock.lockPath, makeRecord({ pid: 4242, holder: 'new-owner' }));
    handle.release();
    assert.equal(readFileSync(lock.lockPath, 'utf8'), theirs);
    handle.release();
    assert.equal(readFileSync(lock.lockPath, 'utf8'), theirs);
    lock.dispose();
  });

  it('release after the lock vanished is a no-op', async () => {
    const { lock, handle } = await held();
    rmSync(lock.lockPath);
    handle.release();
    assert.deepEqual(lock.names(), []);
    lock.dispose();
  });
});
