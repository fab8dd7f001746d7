import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { nameThisThread } from './thread-name.ts';

test('a name longer than the kernel keeps is cut to 15 bytes; a refused write is ignored', () => {
  const writes: [string, string][] = [];
  nameThisThread('muster-index-and-more', (path, data) => void writes.push([path, data]));
  assert.deepEqual(writes, [['/proc/thread-self/comm', 'muster-index-an']]);
  assert.doesNotThrow(() => nameThisThread('x', () => { throw new Error('EACCES'); }));
});

test('a worker thread that names itself is listed under that name', { skip: !existsSync('/proc/thread-self/comm') && 'no /proc/thread-self (not Linux)' }, async () => {
  const href = new URL('./thread-name.ts', import.meta.url).href;
  const api = import.meta.resolve('tsx/esm/api');
  const w = new Worker(`import(${JSON.stringify(api)}).then((a) => a.tsImport(${JSON.stringify(href)}, ${JSON.stringify(import.meta.url)})).then((m) => { m.nameThisThread('muster-test'); require('node:worker_threads').parentPort.postMessage('named'); setTimeout(() => {}, 10000); })`, { eval: true });
  try {
    await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
    const names = readdirSync('/proc/self/task').map((t) => { try { return readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim(); } catch { return ''; } });
    assert.ok(names.includes('muster-test'), `threads: ${names.join(', ')}`);
    assert.equal(readFileSync('/proc/self/comm', 'utf8').trim() === 'muster-test', false, 'the main thread keeps its name');
  } finally {
    await w.terminate();
  }
});
