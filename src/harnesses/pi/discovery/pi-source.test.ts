import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createGitReader } from '../../../discovery/git/index.ts';
import { createPiSource } from './pi-source.ts';
import { piSessionDirName } from './session-files.ts';
import { assistant, header, sessionFileName, sessionInfo, user, writeSession } from './fixture-records.test-support.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-pi-source-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const A = '01a22b3e-21fc-76aa-a3ce-53d61728d075';
const B = '01a22b44-a76b-74d9-abab-032e3da72c1f';
const WEIRD = '/home/dev/we ird — ✓ "dir"';
const NOW = Date.parse('2026-11-30T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function fixture(name: string) {
  const home = path.join(tmp, name, 'agent');
  const statusDir = path.join(tmp, name, 'status');
  fs.mkdirSync(statusDir, { recursive: true });
  const fa = writeSession(path.join(home, 'sessions', piSessionDirName('/w'), sessionFileName(A, iso(NOW - 3_600_000))), [
    header(A, '/w', iso(NOW - 3_600_000)), user('say hi', iso(NOW - 3_599_000)), assistant({ ts: iso(NOW - 3_598_000), text: 'hi', usage: { input: 615, output: 5 } }),
  ]);
  fs.utimesSync(fa, new Date(NOW - 3_598_000), new Date(NOW - 3_598_000));
  const fb = writeSession(path.join(home, 'sessions', piSessionDirName(WEIRD), sessionFileName(B, iso(NOW - 60_000))), [
    header(B, WEIRD, iso(NOW - 60_000)), user('TOOL_BASH please', iso(NOW - 59_000)),
    assistant({ ts: iso(NOW - 58_000), calls: [{ id: 'c1', name: 'bash', arguments: { command: 'sleep 5' } }], usage: { input: 618, output: 5 }, cost: null }),
    sessionInfo('named one', iso(NOW - 57_000)),
  ]);
  fs.utimesSync(fb, new Date(NOW - 57_000), new Date(NOW - 57_000));
  const proc = createFakeProc();
  const source = createPiSource({ home, statusDir, proc, clock: () => NOW, git: createGitReader({ ttlMs: 0 }), price: (m, t) => (m === 'fake-model' ? t.input / 1000 : null) });
  return { home, statusDir, proc, source, fa, fb };
}

const PI = { argv: ['pi', '', ''], comm: 'pi', exe: '/usr/bin/node' };

describe('pi source', () => {
  it('lists dormant sessions with title, tokens, cost, resume argv', async () => {
    const { source } = fixture('dormant');
    const all = await source.list();
    assert.deepEqual(all.map((s) => s.id).sort(), [A, B]);
    const b = all.find((s) => s.id === B);
    assert.equal(b?.title, 'named one');
    assert.equal(b?.cwd, WEIRD);
    assert.equal(b?.live, false);
    assert.equal(b?.status, 'ended');
    assert.equal(b?.canEnd, false);
    assert.equal(b?.costUsd, 0.618, 'no cost in the records: priced');
    assert.equal(all.find((s) => s.id === A)?.costUsd, 0, 'the records carry a cost: used as is');
    assert.deepEqual(b?.resumeArgv, ['pi', '--session', B]);
    assert.equal(all.find((s) => s.id === A)?.title, 'say hi', 'first prompt when unnamed');
  });

  it('a pi process (rewritten argv) in a weird cwd owns the newest session it wrote: live, working, endable', async () => {
    const { source, proc } = fixture('guess');
    proc.add({ pid: 200, ...PI, cwd: WEIRD, startedAtMs: NOW - 120_000 });
    proc.add({ pid: 201, ...PI, cwd: '/w', startedAtMs: NOW - 1000 }); // started after A was last written: not A's owner
    const b = await source.get(B);
    assert.equal(b?.live, true);
    assert.equal(b?.pid, 200);
    assert.equal(b?.status, 'working');
    assert.equal(b?.canEnd, true);
    assert.equal((await source.get(A))?.live, false);
    assert.deepEqual(await source.end(B), { outcome: 'ended', signal: 'SIGTERM', pid: 200 });
    assert.deepEqual(proc.signals, [{ pid: 200, signal: 'SIGTERM', delivered: true }]);
    assert.equal((await source.get(B))?.live, false, 'gone after the signal');
  });

  it('the status extension claims a session exactly; SIGKILL leftovers are stale', async () => {
    const { source, proc, statusDir } = fixture('registry');
    proc.add({ pid: 300, ...PI, cwd: '/elsewhere', startedAtMs: NOW - 7_200_000 });
    fs.writeFileSync(path.join(statusDir, '300.json'), JSON.stringify({ pid: 300, sessionId: A, sessionFile: '/x', cwd: '/w', status: 'busy', updatedAt: NOW - 10_000 }));
    fs.writeFileSync(path.join(statusDir, '301.json'), JSON.stringify({ pid: 301, sessionId: B, sessionFile: '/x', cwd: '/w', status: 'idle', updatedAt: NOW - 10_000 }));
    const a = await source.get(A);
    assert.equal(a?.live, true);
    assert.equal(a?.status, 'working', 'busy per the registry although the file ended its turn');
    assert.equal(a?.statusSince, iso(NOW - 10_000));
    assert.equal((await source.get(B))?.live, false, 'pid 301 is dead');
    assert.equal(source.diagnostics().staleRegistryFiles, 1);
  });

  it('never signals a pid now owned by another program', async () => {
    const { source, proc } = fixture('reuse');
    proc.add({ pid: 400, ...PI, cwd: WEIRD, startedAtMs: NOW - 120_000 });
    assert.equal((await source.get(B))?.live, true);
    proc.remove(400);
    proc.add({ pid: 400, argv: ['python3', 'x.py'], exe: '/usr/bin/python3', cwd: WEIRD, startTicks: 99_999, startedAtMs: NOW - 1000 });
    const r = await source.end(B);
    assert.equal(r.outcome, 'not_running');
    assert.deepEqual(proc.signals, []);
  });

  it('two pi processes in one cwd: live, but a guess that cannot be ended from the board', async () => {
    const { source, proc, home } = fixture('ambiguous');
    const C = '01a22b45-0000-7000-8000-00000000000c';
    const fc = writeSession(path.join(home, 'sessions', piSessionDirName(WEIRD), sessionFileName(C, iso(NOW - 30_000))), [header(C, WEIRD, iso(NOW - 30_000)), user('x', iso(NOW - 29_000)), assistant({ ts: iso(NOW - 28_000), text: 'y' })]);
    fs.utimesSync(fc, new Date(NOW - 28_000), new Date(NOW - 28_000));
    proc.add({ pid: 500, ...PI, cwd: WEIRD, startedAtMs: NOW - 100_000 });
    proc.add({ pid: 501, ...PI, cwd: WEIRD, startedAtMs: NOW - 90_000 });
    const [b, c] = [await source.get(B), await source.get(C)];
    assert.deepEqual([b?.pid, c?.pid], [500, 501]);
    assert.deepEqual([b?.canEnd, c?.canEnd], [false, false]);
    assert.equal((await source.end(C)).outcome, 'unsupported');
    assert.deepEqual(proc.signals, []);
  });

  it('a file without a pi record, or a link leading outside the agent dir, is not a session (issue 13, point 9)', async () => {
    const { source, home } = fixture('links');
    const dir = path.join(home, 'sessions', piSessionDirName('/w'));
    const [C, D, E] = ['01a22b46-0000-7000-8000-00000000000c', '01a22b47-0000-7000-8000-00000000000d', '01a22b48-0000-7000-8000-00000000000e'];
    fs.symlinkSync('/etc/passwd', path.join(dir, sessionFileName(C, iso(NOW))));
    const outside = writeSession(path.join(tmp, 'links-elsewhere', sessionFileName(D, iso(NOW))), [header(D, '/w', iso(NOW)), user('x', iso(NOW))]);
    fs.symlinkSync(outside, path.join(dir, sessionFileName(D, iso(NOW))));
    const inside = writeSession(path.join(home, 'backup', sessionFileName(E, iso(NOW))), [header(E, '/w', iso(NOW)), user('y', iso(NOW))]);
    fs.symlinkSync(inside, path.join(dir, sessionFileName(E, iso(NOW))));
    fs.writeFileSync(path.join(dir, sessionFileName('01a22b49-0000-7000-8000-00000000000f', iso(NOW))), 'garbage\n{"type":"nope"}\n');
    assert.deepEqual((await source.list()).map((s) => s.id).sort(), [A, B, E].sort(), 'a link inside the agent dir is followed');
    assert.equal(source.diagnostics().errors.filter((e) => e.includes('leads outside')).length, 2);
  });

  it('last activity is the last record\'s time, not the file\'s mtime (issue 13, point 14)', async () => {
    const { source, fa } = fixture('copied');
    fs.utimesSync(fa, new Date(), new Date()); // copied or restored just now
    assert.equal((await source.get(A))?.lastActivityAt, iso(NOW - 3_598_000));
  });

  it('refuses malformed ids before anything else', async () => {
    const { source } = fixture('ids');
    await assert.rejects(source.end('../../etc'), { code: 'invalid_id' });
    assert.equal(source.resumeArgv('$(rm -rf /)'), null);
    assert.equal(await source.get('nope'), undefined);
  });
});
