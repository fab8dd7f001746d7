import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { paneFromTmuxField, parseRegistryEntry, registryFilePid } from './registry.ts';
import { isClaudeProcess, scanRegistry, settleMsOf } from './live.ts';
import type { RegistryReadCache } from './live.ts';
import { claudeProc, registryJson, SID, tempHome, writeRegistry } from './claude-fixtures.test-support.ts';

describe('claude registry parsing', () => {
  it('parses a real-shaped entry', () => {
    const r = parseRegistryEntry(registryJson({ pid: 15947, procStart: 28470, status: 'waiting', waitingFor: 'permission prompt', tmux: 'cc2:@1.%1' }), 15947);
    assert.ok(r.ok);
    assert.equal(r.entry.procStart, 28470, 'procStart is a decimal string on disk');
    assert.equal(r.entry.status, 'waiting');
    assert.equal(r.entry.waitingFor, 'permission prompt');
    assert.equal(r.entry.sessionId, SID);
  });

  it('a torn or empty file is torn (worth a re-read); wrong shapes are not', () => {
    const full = registryJson({ pid: 5 });
    for (const text of ['', full.slice(0, full.length / 2)]) {
      const r = parseRegistryEntry(text, 5);
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.torn, true, JSON.stringify(text));
    }
    const wrongPid = parseRegistryEntry(full, 6);
    assert.ok(!wrongPid.ok && !wrongPid.torn, 'pid must match the file name');
    const badId = parseRegistryEntry(registryJson({ pid: 5, sessionId: '../../etc' }), 5);
    assert.ok(!badId.ok && !badId.torn);
    assert.ok(!parseRegistryEntry('[1,2]', 5).ok);
  });

  it('only <pid>.json names are entries', () => {
    assert.equal(registryFilePid('15947.json'), 15947);
    assert.equal(registryFilePid('15947.ab12.key'), null);
    assert.equal(registryFilePid('0.json'), null);
    assert.equal(registryFilePid('x.json'), null);
  });

  it('maps the tmux field to a pane', () => {
    assert.deepEqual(paneFromTmuxField('cc2:@1.%1'), { manager: 'tmux', id: '%1' });
    assert.deepEqual(paneFromTmuxField('my:session:@12.%305'), { manager: 'tmux', id: '%305' });
    assert.equal(paneFromTmuxField(null), null);
    assert.equal(paneFromTmuxField('garbage'), null);
  });

  it('recognises Claude processes by executable or argv', () => {
    const base = { pid: 1, ppid: 1, comm: 'x', cwd: null, ttyNr: 0, tpgid: -1, pgrp: 1, startTicks: 1, startedAtMs: 0 };
    assert.equal(isClaudeProcess({ ...base, argv: ['claude'], exe: '/x/@anthropic-ai/claude-code/bin/claude.exe' }), true);
    assert.equal(isClaudeProcess({ ...base, argv: ['claude', '--resume', SID], exe: '/home/u/.local/share/claude/versions/2.1.332' }), true);
    assert.equal(isClaudeProcess({ ...base, argv: ['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'], exe: '/usr/bin/node' }), true);
    assert.equal(isClaudeProcess({ ...base, argv: ['sleep', '100'], exe: '/usr/bin/sleep' }), false);
    assert.equal(isClaudeProcess({ ...base, argv: ['vim', 'claude.md'], exe: null }), false);
  });
});

describe('claude registry liveness', () => {
  const homes: string[] = [];
  after(() => { for (const h of homes) fs.rmSync(h, { recursive: true, force: true }); });
  const home = (): string => { const h = tempHome(); homes.push(h); return h; };

  it('live only when the pid runs Claude with the recorded start time; leftovers are stale', async () => {
    const h = home();
    const proc = createFakeProc({ processes: [claudeProc(100, 500), claudeProc(200, 999), { pid: 300, startTicks: 700, argv: ['sleep', '60'], exe: '/usr/bin/sleep' }] });
    writeRegistry(h, { pid: 100, procStart: 500 }); // live
    writeRegistry(h, { pid: 200, procStart: 111 }); // pid reused by another claude start
    writeRegistry(h, { pid: 300, procStart: 700 }); // pid of another program, even with matching ticks
    writeRegistry(h, { pid: 400, procStart: 1 }); // SIGKILL leftover: process gone
    fs.writeFileSync(path.join(h, 'sessions', '100.deadbeef.key'), '{}');
    const r = await scanRegistry({ sessionsDir: path.join(h, 'sessions'), proc });
    assert.deepEqual(r.live.map((e) => e.pid), [100]);
    assert.equal(r.stale.length, 3);
    assert.ok(r.stale.some((s) => s.includes('400.json') && s.includes('gone')));
    assert.ok(r.stale.some((s) => s.includes('200.json') && s.includes('reused')));
    assert.ok(r.stale.some((s) => s.includes('300.json') && s.includes('another program')));
  });

  it('many entries are checked against one snapshot of the table, with the same verdicts', async () => {
    const h = home();
    const processes = [];
    for (let i = 0; i < 20; i++) {
      processes.push(claudeProc(100 + i, 500));
      writeRegistry(h, { pid: 100 + i, procStart: 500 });
    }
    processes.push(claudeProc(200, 999), { pid: 300, startTicks: 700, argv: ['sleep', '60'], exe: '/usr/bin/sleep' });
    const fake = createFakeProc({ processes });
    let snapshots = 0;
    let reads = 0;
    const proc = { ...fake, snapshot: () => (snapshots++, fake.snapshot()), read: (pid: number) => (reads++, fake.read(pid)) };
    writeRegistry(h, { pid: 200, procStart: 111 });
    writeRegistry(h, { pid: 300, procStart: 700 });
    writeRegistry(h, { pid: 400, procStart: 1 });
    const r = await scanRegistry({ sessionsDir: path.join(h, 'sessions'), proc });
    assert.deepEqual({ snapshots, reads }, { snapshots: 1, reads: 0 });
    assert.equal(r.live.length, 20);
    assert.equal(r.stale.length, 3);
    assert.ok(r.stale.some((s) => s.includes('400.json') && s.includes('gone')));
    assert.ok(r.stale.some((s) => s.includes('200.json') && s.includes('reused')));
    assert.ok(r.stale.some((s) => s.includes('300.json') && s.includes('another program')));
  });

  it('a torn file is re-read once shortly after', async () => {
    const h = home();
    const proc = createFakeProc({ processes: [claudeProc(100, 500)] });
    const file = writeRegistry(h, { pid: 100, procStart: 500 });
    const full = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, full.slice(0, 40));
    // The writer finishes while the reader waits for its re-read.
    const finish = setTimeout(() => fs.writeFileSync(file, full), 20);
    const r = await scanRegistry({ sessionsDir: path.join(h, 'sessions'), proc, tornRetryMs: 150 });
    clearTimeout(finish);
    assert.deepEqual(r.live.map((e) => e.pid), [100]);
    assert.equal(r.skipped, 0);
  });

  it('still-torn, empty, directory and unreadable entries are skipped and counted, never fatal', async () => {
    const h = home();
    const proc = createFakeProc({ processes: [claudeProc(100, 500)] });
    writeRegistry(h, { pid: 100, procStart: 500 });
    fs.writeFileSync(path.join(h, 'sessions', '101.json'), '{"pid":101,"sess');
    fs.writeFileSync(path.join(h, 'sessions', '102.json'), '');
    fs.mkdirSync(path.join(h, 'sessions', '103.json'));
    fs.writeFileSync(path.join(h, 'sessions', '104.json'), Buffer.from([0xff, 0xfe, 0x00, 0x7b]));
    const r = await scanRegistry({ sessionsDir: path.join(h, 'sessions'), proc, tornRetryMs: 5 });
    assert.deepEqual(r.live.map((e) => e.pid), [100]);
    assert.equal(r.skipped, 4);
    assert.equal(r.errors.length, 4);
  });

  it('with a cache, a settled entry is not read again until its file changes; a removed one is forgotten', async () => {
    const h = home();
    const proc = createFakeProc({ processes: [claudeProc(100, 500), claudeProc(101, 500)] });
    const file = writeRegistry(h, { pid: 100, procStart: 500, status: 'busy' });
    const other = writeRegistry(h, { pid: 101, procStart: 500, status: 'idle' });
    const reads: string[] = [];
    const readText = (f: string): string => (reads.push(path.basename(f)), fs.readFileSync(f, 'utf8'));
    const cache: RegistryReadCache = new Map();
    const scan = () => scanRegistry({ sessionsDir: path.join(h, 'sessions'), proc, cache, readText, settledMs: 0, fineSettledMs: 0 });
    await new Promise((r) => setTimeout(r, 5)); // both files older than the settle time (0 ms) by then
    const first = await scan();
    assert.deepEqual(first.live.map((e) => e.status).sort(), ['busy', 'idle']);
    assert.equal(reads.length, 2);
    first.live[0]!.status = 'mutated by a caller';
    const second = await scan();
    assert.equal(reads.length, 2, 'unchanged files are not read again');
    assert.deepEqual(second.live.map((e) => e.status).sort(), ['busy', 'idle'], 'a cached entry is handed out as a copy');
    // A status change of the same length: the rewrite's mtime and ctime show it.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"busy"', '"idle"'));
    await new Promise((r) => setTimeout(r, 5));
    const third = await scan();
    assert.deepEqual(reads.slice(2), ['100.json']);
    assert.deepEqual(third.live.map((e) => e.status), ['idle', 'idle']);
    fs.rmSync(other);
    const fourth = await scan();
    assert.deepEqual(fourth.live.map((e) => e.pid), [100]);
    assert.deepEqual([...cache.keys()], [file]);
  });

  it('with a cache, a file written within the settle time is read at every scan', async () => {
    const h = home();
    const proc = createFakeProc({ processes: [claudeProc(100, 500)] });
    writeRegistry(h, { pid: 100, procStart: 500 });
    let reads = 0;
    const cache: RegistryReadCache = new Map();
    // Settle times no scan here can outlast, however slow the machine.
    const scan = () => scanRegistry({ sessionsDir: path.join(h, 'sessions'), proc, cache, readText: (f) => (reads++, fs.readFileSync(f, 'utf8')), settledMs: 60_000, fineSettledMs: 60_000 });
    assert.deepEqual((await scan()).live.map((e) => e.pid), [100]);
    assert.deepEqual((await scan()).live.map((e) => e.pid), [100]);
    assert.equal(reads, 2, 'a rewrite within the timestamps\' granularity would not show in the stat: read again');
    assert.equal(cache.size, 0);
  });

  it('the settle time is short where the file system keeps sub-second timestamps, a second where it keeps whole ones', async () => {
    assert.equal(settleMsOf({ mtimeMs: 1_764_000_000_123.456, ctimeMs: 1_764_000_000_123.456 }, 1000, 100), 100);
    assert.equal(settleMsOf({ mtimeMs: 1_764_000_000_000, ctimeMs: 1_764_000_001_000 }, 1000, 100), 1000, 'whole seconds');
    assert.equal(settleMsOf({ mtimeMs: 1_764_000_000_000, ctimeMs: 1_764_000_000_417.2 }, 1000, 100), 1000, 'one whole: not trusted');
    // This machine's temp dir keeps sub-second times: a file 150 ms old is kept from its first read (the default, 100 ms).
    const h = home();
    const proc = createFakeProc({ processes: [claudeProc(100, 500)] });
    const file = writeRegistry(h, { pid: 100, procStart: 500 });
    const st = fs.statSync(file);
    assert.equal(settleMsOf(st, 1000, 100), 100, `the test's premise: ${h} keeps sub-second timestamps`);
    await new Promise((r) => setTimeout(r, 150));
    let reads = 0;
    const cache: RegistryReadCache = new Map();
    const scan = () => scanRegistry({ sessionsDir: path.join(h, 'sessions'), proc, cache, readText: (f) => (reads++, fs.readFileSync(f, 'utf8')) });
    await scan();
    await scan();
    assert.equal(reads, 1);
    assert.equal(cache.size, 1);
  });

  it('a missing sessions dir is an empty registry', async () => {
    const r = await scanRegistry({ sessionsDir: path.join(home(), 'nope'), proc: createFakeProc() });
    assert.deepEqual(r, { live: [], stale: [], skipped: 0, notRegular: 0, errors: [] });
  });
});
