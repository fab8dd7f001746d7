import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMusterError } from '../../errors/index.ts';
import { acquireLock } from './acquire.ts';
import { defaultLockOperations } from './operations.ts';
import { IDENTITY, OUR_PID, fakeWorld, makeRecord, tempLock, ticks, writeRecordFile } from './lock-fakes.test-support.ts';

const acquire = (lockPath: string, world: ReturnType<typeof fakeWorld>) =>
  acquireLock({ lockPath, identity: IDENTITY, pid: OUR_PID, ops: world.ops });

async function rejection(p: Promise<unknown>): Promise<{ code: string; details: unknown; message: string }> {
  try {
    await p;
  } catch (e) {
    assert.ok(isMusterError(e), String(e));
    return { code: e.code, details: e.details, message: e.message };
  }
  return assert.fail('expected a rejection');
}

describe('reclaim under <lock>.reclaim', () => {
  it('backs off behind a live reclaimer and finally names .reclaim as the blocking file', async () => {
    const lock = tempLock();
    const stale = writeRecordFile(lock.lockPath, makeRecord({ pid: 4242 }));
    writeRecordFile(`${lock.lockPath}.reclaim`, makeRecord({ pid: 5555, holder: 'reclaimer', ownerStartedAt: ticks(700) }));
    const world = fakeWorld();
    world.processes.set(5555, ticks(700));
    const e = await rejection(acquire(lock.lockPath, world));
    assert.equal(e.code, 'lock_blocked');
    assert.deepEqual(e.details, { file: `${lock.lockPath}.reclaim` });
    assert.deepEqual(world.sleeps, [25, 50, 100, 200, 400], 'doubling backoff, one per attempt');
    assert.equal(readFileSync(lock.lockPath, 'utf8'), stale, 'the live reclaimer decides, not us');
    assert.ok(existsSync(`${lock.lockPath}.reclaim`), 'a live reclaimer keeps its claim');
    lock.dispose();
  });

  it('sees the fresh lock of a reclaimer that finished while we waited', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, makeRecord({ pid: 4242 }));
    writeRecordFile(`${lock.lockPath}.reclaim`, makeRecord({ pid: 5555, holder: 'reclaimer', ownerStartedAt: ticks(700) }));
    const world = fakeWorld();
    world.processes.set(5555, ticks(700));
    world.onSleep = () => {
      writeRecordFile(lock.lockPath, makeRecord({ pid: 5555, holder: 'reclaimer', ownerStartedAt: ticks(700) }));
      rmSync(`${lock.lockPath}.reclaim`);
    };
    const e = await rejection(acquire(lock.lockPath, world));
    assert.equal(e.code, 'already_running');
    assert.deepEqual(e.details, { pid: 5555 });
    lock.dispose();
  });

  it('never deletes a fresh lock that replaced the stale one before our reclaim claim', async () => {
    // Two reclaimers saw the same dead owner; the other one reclaimed first and now owns the lock.
    const lock = tempLock();
    writeRecordFile(lock.lockPath, makeRecord({ pid: 4242 }));
    const world = fakeWorld();
    world.processes.set(6666, ticks(800));
    const fresh = makeRecord({ pid: 6666, holder: 'winner', ownerStartedAt: ticks(800) });
    let freshText = '';
    world.ops.link = (from, to) => {
      if (to.endsWith('.reclaim') && freshText === '') {
        rmSync(lock.lockPath);
        freshText = writeRecordFile(lock.lockPath, fresh);
      }
      defaultLockOperations.link(from, to);
    };
    const e = await rejection(acquire(lock.lockPath, world));
    assert.equal(e.code, 'already_running');
    assert.deepEqual(e.details, { pid: 6666 });
    assert.equal(readFileSync(lock.lockPath, 'utf8'), freshText, "the winner's record is intact");
    assert.deepEqual(lock.names(), ['muster.db.lock'], 'our .reclaim claim released');
    lock.dispose();
  });

  it('abandons a .reclaim whose owner died, then reclaims', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, makeRecord({ pid: 4242 }));
    writeRecordFile(`${lock.lockPath}.reclaim`, makeRecord({ pid: 5555, holder: 'crashed-reclaimer' }));
    const world = fakeWorld();
    const handle = await acquire(lock.lockPath, world);
    assert.equal(handle.stillHeld(), true);
    assert.deepEqual(world.sleeps, []);
    assert.deepEqual(lock.names(), ['muster.db.lock']);
    lock.dispose();
  });

  it('abandons a .reclaim that stays unreadable across attempts, but not one still being written', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, makeRecord({ pid: 4242 }));
    const reclaim = `${lock.lockPath}.reclaim`;
    writeRecordFile(reclaim, '{"pi');
    const world = fakeWorld();
    const seen: string[] = [];
    world.onSleep = () => {
      seen.push(readFileSync(reclaim, 'utf8'));
      // First sleep: the writer appended more (still partial); it then stops for good.
      if (seen.length === 1) writeFileSync(reclaim, '{"pid');
    };
    const handle = await acquire(lock.lockPath, world);
    assert.deepEqual(seen, ['{"pi', '{"pid'], 'a changing .reclaim gets another attempt');
    assert.equal(handle.stillHeld(), true);
    assert.deepEqual(lock.names(), ['muster.db.lock']);
    lock.dispose();
  });

  it('reclaims a lock whose owner left while we held .reclaim', async () => {
    const lock = tempLock();
    writeRecordFile(lock.lockPath, makeRecord({ pid: 4242 }));
    const world = fakeWorld();
    world.ops.link = (from, to) => {
      defaultLockOperations.link(from, to);
      if (to.endsWith('.reclaim')) rmSync(lock.lockPath);
    };
    const handle = await acquire(lock.lockPath, world);
    assert.equal(handle.stillHeld(), true);
    assert.deepEqual(lock.names(), ['muster.db.lock']);
    lock.dispose();
  });
});

describe('sweep of crash leftovers after a successful acquisition', () => {
  it('removes staging files of dead pids only, and a dead .reclaim; leaves everything else', async () => {
    const lock = tempLock();
    const world = fakeWorld();
    world.processes.set(3333, ticks(300));
    const files = {
      deadStaging: 'muster.db.lock.2222.AbC_12-xyz.tmp',
      deadReclaimStaging: 'muster.db.lock.reclaim.2222.QQQQ.tmp',
      liveStaging: 'muster.db.lock.3333.AbC_12-xyz.tmp',
      ownStaging: `muster.db.lock.${OUR_PID}.zzz.tmp`,
      otherLock: 'other.db.lock.2222.AbC.tmp',
      notStaging: 'muster.db.lock.2222.tmp.bak',
      db: 'muster.db',
    };
    for (const name of Object.values(files)) writeFileSync(join(lock.dir, name), 'x');
    writeRecordFile(`${lock.lockPath}.reclaim`, makeRecord({ pid: 2222, holder: 'crashed' }));
    await acquire(lock.lockPath, world);
    const expected = [files.liveStaging, files.ownStaging, files.otherLock, files.notStaging, files.db, 'muster.db.lock'];
    assert.deepEqual(lock.names(), expected.sort());
    lock.dispose();
  });

  it('keeps a .reclaim whose owner is alive', async () => {
    const lock = tempLock();
    const world = fakeWorld();
    world.processes.set(3333, ticks(300));
    writeRecordFile(`${lock.lockPath}.reclaim`, makeRecord({ pid: 3333, holder: 'busy', ownerStartedAt: ticks(300) }));
    await acquire(lock.lockPath, world);
    assert.deepEqual(lock.names(), ['muster.db.lock', 'muster.db.lock.reclaim']);
    lock.dispose();
  });
});
