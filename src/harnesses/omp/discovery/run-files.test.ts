import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { isOmpProcess } from '../../pi/discovery/index.ts';
import { readRunClients } from './run-files.ts';
import { ptsNumber, readTerminalPointer } from './terminal-pointers.ts';
import { readTitleLine } from './title-line.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-omp-run-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const U = '66cda080-7843-475a-8125-e3e9429bc5af';

describe('omp clients run files', () => {
  it('keeps files of live omp pids and counts every leftover and bad file', () => {
    const runDir = path.join(tmp, 'run');
    const clients = path.join(runDir, 'daemons', '0123456789abcdef', 'clients');
    const other = path.join(runDir, 'daemons', 'fedcba9876543210', 'clients');
    fs.mkdirSync(clients, { recursive: true });
    fs.mkdirSync(other, { recursive: true });
    const now = Date.now();
    const fake = createFakeProc();
    const omp = { argv: ['bun', '/h/node_modules/.bin/omp', '--mode', 'rpc'], exe: '/h/node_modules/bun/bin/bun', startedAtMs: now - 60_000 };
    fake.add({ pid: 100, ...omp });
    fake.add({ pid: 101, argv: ['python3', 'server.py'], exe: '/usr/bin/python3', startedAtMs: now - 60_000 });
    fake.add({ pid: 102, ...omp, startedAtMs: now + 60_000 }); // started after its file was written: pid reused
    const write = (dir: string, pid: number, body: string | Buffer) => fs.writeFileSync(path.join(dir, `${pid}-${U}.json`), body);
    write(clients, 100, JSON.stringify({ pid: 100, id: `100-${U}`, projectDir: '/home/dev/project-omp' }));
    write(clients, 101, JSON.stringify({ pid: 101, id: `101-${U}`, projectDir: '/p' })); // another program
    write(clients, 102, JSON.stringify({ pid: 102, id: `102-${U}`, projectDir: '/p' }));
    write(other, 103, JSON.stringify({ pid: 103, id: `103-${U}`, projectDir: '/p' })); // dead (SIGKILL leftover)
    write(other, 104, ''); // empty
    fs.mkdirSync(path.join(other, `105-${U}.json`)); // a directory where a file should be
    write(other, 106, Buffer.from([0x7b, 0x22, 0x70, 0xff, 0x7d])); // invalid UTF-8
    write(other, 107, '{"pid":100}'); // pid does not match its name
    fs.closeSync(fs.openSync(path.join(other, `108-${U}.json`), 'w'));
    fs.truncateSync(path.join(other, `108-${U}.json`), 50 * 1024 * 1024); // 50 MB: never read
    fs.writeFileSync(path.join(other, 'unrelated.txt'), 'x');
    const r = readRunClients(runDir, fake.snapshot(), isOmpProcess);
    assert.deepEqual(r.clients, [{ pid: 100, projectDir: '/home/dev/project-omp', file: path.join(clients, `100-${U}.json`) }]);
    assert.equal(r.stale, 8);
  });

  it('no run directory: nothing, nothing stale', () => {
    assert.deepEqual(readRunClients(path.join(tmp, 'absent'), createFakeProc().snapshot(), isOmpProcess), { clients: [], stale: 0, notRegular: 0 });
  });
});

describe('omp terminal-session pointers', () => {
  it('maps tty_nr of /dev/pts/N to N, and nothing else', () => {
    assert.equal(ptsNumber((136 << 8) | 2), 2);
    assert.equal(ptsNumber((136 << 8) | 0x2c | (0x100 << 12)), 300);
    assert.equal(ptsNumber((137 << 8) | 1), 257);
    assert.equal(ptsNumber((4 << 8) | 1), null, 'a virtual console');
    assert.equal(ptsNumber(0), null);
  });

  it('reads cwd and session file; refuses a malformed pointer', () => {
    const dir = path.join(tmp, 'terminal-sessions');
    fs.mkdirSync(dir, { recursive: true });
    const file = '/home/dev/.omp/agent/sessions/-home-dev-p/2026-11-30T06-58-37-492Z_01a22b3f-9734-7682-beab-1273034798ab.jsonl';
    fs.writeFileSync(path.join(dir, 'pts-2'), `/home/dev/p\n${file}\ncwdstat 65024 2230696\n`);
    fs.writeFileSync(path.join(dir, 'pts-3'), 'just one line');
    assert.equal(readTerminalPointer(dir, 2)?.sessionFile, file);
    assert.equal(readTerminalPointer(dir, 3), null);
    assert.equal(readTerminalPointer(dir, 4), null);
  });
});

describe('omp title line', () => {
  it('reads a padded title record rewritten in place, and nothing from other first lines', () => {
    const f = path.join(tmp, 't.jsonl');
    fs.writeFileSync(f, '{"type":"title","v":1,"title":"","pad":"      "}\n{"type":"session"}\n');
    assert.equal(readTitleLine(f), null);
    fs.writeFileSync(f, '{"type":"title","v":1,"title":"rpc-demo","pad":" "}\n{"type":"session"}\n');
    assert.equal(readTitleLine(f), 'rpc-demo');
    fs.writeFileSync(f, '{"type":"session","title":"no"}\n');
    assert.equal(readTitleLine(f), null);
    assert.equal(readTitleLine(path.join(tmp, 'absent.jsonl')), null);
  });
});
