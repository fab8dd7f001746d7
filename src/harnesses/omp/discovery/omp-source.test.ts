import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { ompSessionDirName } from '../../pi/discovery/index.ts';
import { assistant, header, jsonl, ompExit, ompModelChange, ompTitle, sessionFileName, user, writeSession } from '../../pi/discovery/fixture-records.test-support.ts';
import { createOmpSource } from './omp-source.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-omp-source-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const A = '01a22b3f-1418-70af-926e-e05b29b6c8c0';
const B = '01a22b3f-9734-7682-beab-1273034798ab';
const U = '66cda080-7843-475a-8125-e3e9429bc5af';
// Run files are dated by the real clock, so fixture times are relative to it.
const NOW = Math.floor(Date.now() / 1000) * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const OMP = { argv: ['bun', '/h/node_modules/.bin/omp', '--model', 'fakeoai/fake-model'], exe: '/h/node_modules/bun/bin/bun' };

function fixture(name: string) {
  const home = path.join(tmp, name, '.omp');
  const dir = path.join(home, 'agent', 'sessions', ompSessionDirName('/home/dev/project-omp'));
  const fa = writeSession(path.join(dir, sessionFileName(A, iso(NOW - 3_600_000))), [
    ompTitle('', iso(NOW - 3_600_000)), header(A, '/home/dev/project-omp', iso(NOW - 3_600_000)), ompModelChange('fakeoai/fake-model', iso(NOW - 3_600_000)),
    user('say hi', iso(NOW - 3_599_000)), assistant({ ts: iso(NOW - 3_598_000), text: 'hi', usage: { input: 4734, output: 5 } }), ompExit(iso(NOW - 3_597_000)),
  ]);
  fs.utimesSync(fa, new Date(NOW - 3_597_000), new Date(NOW - 3_597_000));
  const fb = writeSession(path.join(dir, sessionFileName(B, iso(NOW - 60_000))), [
    ompTitle('', iso(NOW - 60_000)), header(B, '/home/dev/project-omp', iso(NOW - 60_000)), user('SLOW6 say hi slowly', iso(NOW - 59_000)),
  ]);
  fs.utimesSync(fb, new Date(NOW - 59_000), new Date(NOW - 59_000));
  const proc = createFakeProc();
  const source = createOmpSource({ home, proc, statusDir: null, clock: () => NOW });
  return { home, proc, source, fa, fb };
}

function clientFile(home: string, pid: number): string {
  const dir = path.join(home, 'run', 'daemons', 'a1b2c3d4e5f60718', 'clients');
  fs.mkdirSync(dir, { recursive: true });
  const f = path.join(dir, `${pid}-${U}.json`);
  fs.writeFileSync(f, JSON.stringify({ pid, id: `${pid}-${U}`, projectDir: '/home/dev/project-omp' }));
  return f;
}

describe('omp source', () => {
  it('dormant sessions: ended, with model, tokens and the omp resume argv', async () => {
    const { source } = fixture('dormant');
    const a = await source.get(A);
    assert.equal(a?.live, false);
    assert.equal(a?.status, 'ended');
    assert.equal(a?.model, 'fake-model');
    assert.equal(a?.tokens.input, 4734);
    assert.deepEqual(a?.resumeArgv, ['omp', '--resume', A]);
    assert.equal(a?.statusSince, iso(NOW - 3_597_000), 'since its session_exit');
  });

  it('an interactive omp is tied to its session by its tty pointer, exactly, even to an older file', async () => {
    const { source, proc, home, fa } = fixture('pointer');
    const pointers = path.join(home, 'agent', 'terminal-sessions');
    fs.mkdirSync(pointers, { recursive: true });
    fs.writeFileSync(path.join(pointers, 'pts-7'), `/home/dev/project-omp\n${fa}\ncwdstat 1 2\n`);
    proc.add({ pid: 700, ...OMP, argv: [...OMP.argv], cwd: '/home/dev/project-omp', ttyNr: (136 << 8) | 7, startedAtMs: Date.now() - 5000 });
    clientFile(home, 700);
    const a = await source.get(A);
    assert.equal(a?.live, true, 'resumed by the interactive process on pts/7');
    assert.equal(a?.status, 'idle', 'after a session_exit, nothing new yet');
    assert.equal(a?.canEnd, true);
    assert.equal((await source.get(B))?.live, false, 'the tty pointer claimed the process: no cwd guess');
    assert.equal(source.diagnostics().staleRegistryFiles, 0);
  });

  it('--resume in argv claims the session; SIGTERM ends it; a SIGKILL leftover run file is stale', async () => {
    const { source, proc, home } = fixture('resume');
    proc.add({ pid: 800, argv: [...OMP.argv, '--resume', '01a22b3f-1418'], exe: OMP.exe, cwd: '/somewhere', startedAtMs: NOW - 10_000 });
    clientFile(home, 800);
    clientFile(home, 801); // its process was SIGKILLed
    const a = await source.get(A);
    assert.equal(a?.live, true);
    assert.equal(a?.pid, 800);
    assert.equal(source.diagnostics().staleRegistryFiles, 1);
    assert.deepEqual(await source.end(A), { outcome: 'ended', signal: 'SIGTERM', pid: 800 });
    assert.deepEqual(proc.signals.map((s) => [s.pid, s.signal]), [[800, 'SIGTERM']]);
  });

  it('an RPC omp without pointer or argv is matched by cwd to the session it is writing', async () => {
    const { source, proc, home } = fixture('rpc');
    proc.add({ pid: 900, argv: [...OMP.argv, '--mode', 'rpc'], exe: OMP.exe, cwd: '/home/dev/project-omp', startedAtMs: NOW - 61_000 });
    clientFile(home, 900);
    const b = await source.get(B);
    assert.equal(b?.live, true);
    assert.equal(b?.status, 'working');
    assert.equal(b?.title, 'SLOW6 say hi slowly');
  });

  it('a held session-owner lease is exact evidence (builds that hold one)', async () => {
    const { home, proc } = fixture('lease');
    const leaseDir = path.join(home, 'agent', 'session-owners');
    fs.mkdirSync(leaseDir, { recursive: true });
    fs.writeFileSync(path.join(leaseDir, `${A}.lock`), '');
    proc.add({ pid: 950, ...OMP, argv: [...OMP.argv], cwd: '/elsewhere', startedAtMs: NOW });
    proc.holdLock(path.join(leaseDir, `${A}.lock`), 950);
    const source = createOmpSource({ home, proc, statusDir: null, clock: () => NOW });
    assert.equal((await source.get(A))?.pid, 950);
    proc.releaseLock(path.join(leaseDir, `${A}.lock`));
    assert.equal((await source.get(A))?.live, false);
  });

  it('picks up a title rewritten in place on the padded first line, and appended records', async () => {
    const { source, fb } = fixture('retitle');
    assert.equal((await source.get(B))?.title, 'SLOW6 say hi slowly');
    const text = fs.readFileSync(fb, 'utf8');
    const first = text.slice(0, text.indexOf('\n'));
    const renamed = JSON.stringify(ompTitle('renamed', iso(NOW), 0)).slice(0, -1);
    const line = renamed.replace('"pad":""', `"pad":"${' '.repeat(first.length - renamed.length - 1)}"`) + '}';
    assert.equal(line.length, first.length, 'same size, as omp rewrites it');
    fs.writeFileSync(fb, line + text.slice(first.length) + jsonl([assistant({ ts: iso(NOW), text: 'hi', usage: { input: 1, output: 1 } })]));
    const b = await source.get(B);
    assert.equal(b?.title, 'renamed');
    assert.equal(b?.tokens.input, 1);
  });
});
