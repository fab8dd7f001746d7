import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSpecialFile, startFifoUnblocker, SPECIAL_KINDS } from '../../../test/fakes/special-files.ts';
import { assertSqliteFilesRegular, isNotRegularFile, openRegularFile, readRegularFile, readRegularText, statRegularFile } from './index.ts';

describe('regular-file reads', () => {
  let dir = '';
  let unblocker: { stop(): void } | undefined;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-regular-'));
    for (const kind of SPECIAL_KINDS) makeSpecialFile(path.join(dir, kind), kind);
    fs.mkdirSync(path.join(dir, 'directory'));
    fs.symlinkSync(path.join(dir, 'fifo'), path.join(dir, 'link-to-fifo'));
    fs.writeFileSync(path.join(dir, 'plain'), 'hello');
    unblocker = startFifoUnblocker(dir);
  });
  after(() => {
    unblocker?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a FIFO (also through a link), a socket, a device and a directory at once, naming the kind', () => {
    const want: Record<string, string> = { fifo: 'fifo', 'link-to-fifo': 'fifo', socket: 'socket', device: 'character device', directory: 'directory' };
    for (const [name, kind] of Object.entries(want)) {
      const p = path.join(dir, name);
      const t0 = performance.now();
      for (const read of [() => openRegularFile(p), () => readRegularFile(p, 1024), () => statRegularFile(p)]) {
        assert.throws(read, (e) => isNotRegularFile(e) && e.kind === kind && e.code === 'ENOTREG', name);
      }
      assert.ok(performance.now() - t0 < 500, `${name} refused without waiting`);
    }
  });

  it('reads a regular file whole, and refuses one over the limit without reading it', () => {
    assert.equal(readRegularText(path.join(dir, 'plain'), 5), 'hello');
    assert.equal(readRegularFile(path.join(dir, 'plain'), 5).stats.size, 5);
    assert.throws(() => readRegularFile(path.join(dir, 'plain'), 4), { code: 'EFBIG' });
    assert.throws(() => readRegularFile(path.join(dir, 'missing'), 4), { code: 'ENOENT' });
  });

  it('reads files of many chunks and of none, and each read keeps its own bytes (the reads share one buffer)', () => {
    const big = Buffer.alloc(200 * 1024 + 7);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) % 251;
    fs.writeFileSync(path.join(dir, 'big'), big);
    fs.writeFileSync(path.join(dir, 'empty'), '');
    const first = readRegularFile(path.join(dir, 'plain'), 1024).bytes;
    const whole = readRegularFile(path.join(dir, 'big'), big.length).bytes;
    const none = readRegularFile(path.join(dir, 'empty'), 10).bytes;
    assert.ok(whole.equals(big));
    assert.equal(none.length, 0);
    assert.equal(first.toString('utf8'), 'hello');
    assert.throws(() => readRegularFile(path.join(dir, 'big'), big.length - 1), { code: 'EFBIG' });
  });

  it('a SQLite store is refused when it or a side file is not a regular file; missing side files are fine', () => {
    const db = path.join(dir, 'store.db');
    fs.writeFileSync(db, '');
    assert.doesNotThrow(() => assertSqliteFilesRegular(db));
    makeSpecialFile(`${db}-wal`, 'fifo');
    assert.throws(() => assertSqliteFilesRegular(db), (e) => isNotRegularFile(e) && e.path === `${db}-wal`);
    assert.throws(() => assertSqliteFilesRegular(path.join(dir, 'fifo')), (e) => isNotRegularFile(e) && e.kind === 'fifo');
    assert.throws(() => assertSqliteFilesRegular(path.join(dir, 'none.db')), { code: 'ENOENT' });
  });
});
