import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { readStatusRegistry } from './status-registry.ts';
import { isOmpProcess, isPiProcess } from './harness-process.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-pi-status-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const ID = '01a22b44-a76b-74d9-abab-032e3da72c1f';
const entry = (pid: number, status: string, updatedAt: number) => JSON.stringify({ pid, sessionId: ID, sessionFile: `/s/x_${ID}.jsonl`, cwd: '/p', status, updatedAt });

describe('status extension registry', () => {
  it('accepts live pi entries and counts leftovers: dead pid, other program, reused pid, empty, directory, invalid UTF-8, huge', () => {
    const fake = createFakeProc();
    const t0 = 1_800_000_000_000;
    fake.add({ pid: 10, argv: ['pi'], comm: 'pi', exe: '/usr/bin/node', startedAtMs: t0 });
    fake.add({ pid: 11, argv: ['sleep', '100'], exe: '/usr/bin/sleep', startedAtMs: t0 });
    fake.add({ pid: 12, argv: ['pi'], comm: 'pi', exe: '/usr/bin/node', startedAtMs: t0 + 60_000 });
    fake.add({ pid: 13, argv: ['bun', '/h/.bin/omp'], exe: '/h/bun', startedAtMs: t0 });
    fs.writeFileSync(path.join(tmp, '10.json'), entry(10, 'busy', t0 + 5000));
    fs.writeFileSync(path.join(tmp, '11.json'), entry(11, 'idle', t0 + 5000));
    fs.writeFileSync(path.join(tmp, '12.json'), entry(12, 'idle', t0 + 5000)); // written before pid 12 started
    fs.writeFileSync(path.join(tmp, '13.json'), entry(13, 'idle', t0 + 5000)); // omp's: not ours, not stale
    fs.writeFileSync(path.join(tmp, '14.json'), entry(14, 'idle', t0)); // dead
    fs.writeFileSync(path.join(tmp, '15.json'), '');
    fs.mkdirSync(path.join(tmp, '16.json'));
    fs.writeFileSync(path.join(tmp, '17.json'), Buffer.from([0x7b, 0xff, 0x7d]));
    fs.closeSync(fs.openSync(path.join(tmp, '18.json'), 'w'));
    fs.truncateSync(path.join(tmp, '18.json'), 50 * 1024 * 1024);
    fs.writeFileSync(path.join(tmp, '19.json'), entry(10, 'busy', t0 + 5000)); // pid differs from the name
    fs.writeFileSync(path.join(tmp, 'README'), 'not an entry');
    const r = readStatusRegistry(tmp, fake.snapshot(), isPiProcess, isOmpProcess);
    assert.deepEqual([...r.entries.keys()], [10]);
    assert.deepEqual(r.entries.get(10), { pid: 10, sessionId: ID, sessionFile: `/s/x_${ID}.jsonl`, state: 'busy', updatedAt: new Date(t0 + 5000).toISOString() });
    assert.equal(r.stale, 8);
  });

  it('no directory configured or present: nothing, nothing stale', () => {
    const table = createFakeProc().snapshot();
    assert.equal(readStatusRegistry(null, table, isPiProcess, isOmpProcess).stale, 0);
    assert.equal(readStatusRegistry(path.join(tmp, 'absent'), table, isPiProcess, isOmpProcess).entries.size, 0);
  });
});
