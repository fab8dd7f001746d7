import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import type { OpenCodeHttpPort, ServerView } from './http.ts';
import { assistantMessage, createFixtureStore, fixtureSessionId, userMessage, type FixtureStore } from './fixture-store.test-support.ts';
import { createOpenCodeSource, type OpenCodeSourceOptions } from './source.ts';
import { DIED_MID_TURN } from './status.ts';
import type { Session } from '../../../core/session.ts';

const NOW = 1_796_022_600_000;
const EXE = '/opt/node_modules/opencode-linux-x64/bin/opencode';

function setup(): { home: string; st: FixtureStore; done: string; killed: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-src-'));
  const st = createFixtureStore(home);
  const done = fixtureSessionId(1);
  const killed = fixtureSessionId(2);
  st.addSession({ id: done, directory: '/home/dev/project oc\nweird', title: 'Greet the fake user', createdMs: NOW - 9000, tokens: { input: 355, output: 7 } });
  st.addMessage(done, 'msg_1', NOW - 8000, userMessage(NOW - 8000));
  st.addMessage(done, 'msg_2', NOW - 7900, assistantMessage(NOW - 7900, { completedMs: NOW - 7000, finish: 'stop' }));
  st.addSession({ id: killed, directory: '/home/dev/p2', title: 'SLOW', createdMs: NOW - 5000 });
  st.addMessage(killed, 'msg_3', NOW - 4000, userMessage(NOW - 4000));
  st.addMessage(killed, 'msg_4', NOW - 3900, assistantMessage(NOW - 3900));
  return { home, st, done, killed };
}

function fakeHttp(views: Record<string, ServerView>): OpenCodeHttpPort & { aborts: string[]; prompts: string[] } {
  const aborts: string[] = [];
  const prompts: string[] = [];
  return {
    aborts,
    prompts,
    view: async (u) => views[u] ?? null,
    abort: async (u, id) => { aborts.push(`${u} ${id}`); return true; },
    prompt: async (u, id, text) => { prompts.push(`${u} ${id} ${text}`); return true; },
  };
}

function source(home: string, o: Partial<OpenCodeSourceOptions> = {}) {
  return createOpenCodeSource({ home, env: {}, proc: createFakeProc(), http: fakeHttp({}), ...o });
}

test('dormant sessions: title, cwd, tokens, model, resume argv; a SIGKILLed reply stays stuck until resumed', async () => {
  const { home, st, done, killed } = setup();
  const src = source(home);
  const list = await src.list();
  assert.deepEqual(list.map((s) => s.id).sort(), [done, killed].sort());
  const d = list.find((s) => s.id === done)!;
  assert.equal(d.title, 'Greet the fake user');
  assert.equal(d.cwd, '/home/dev/project oc\nweird');
  assert.deepEqual(d.tokens, { input: 355, output: 7, cacheRead: 0, cacheWrite: 0 });
  assert.equal(d.model, 'fake-model');
  assert.equal(d.costUsd, 0);
  assert.deepEqual([d.live, d.status, d.canEnd, d.pid], [false, 'ended', false, null]);
  assert.deepEqual(d.resumeArgv, ['opencode', '-s', done]);
  assert.equal(d.lastActivityAt, new Date(NOW - 7000).toISOString());
  const k = list.find((s) => s.id === killed)!;
  assert.deepEqual([k.live, k.status, k.waitingFor], [false, 'stuck', DIED_MID_TURN]);
  // No grace period: however old, a reply whose process died is stuck until a live process owns the session.
  assert.equal((await source(home).get(killed))?.status, 'stuck');
  st.close();
});

test('live by -s: working from the store, ended with SIGTERM; a reused pid is never signalled', async () => {
  const { home, st, killed } = setup();
  const proc = createFakeProc();
  const p = proc.add({ argv: ['opencode', '-s', killed], exe: EXE, cwd: '/home/dev/p2', startTicks: 500 });
  const src = source(home, { proc });
  const s = await src.get(killed);
  assert.deepEqual([s?.live, s?.status, s?.pid, s?.canEnd, s?.pids], [true, 'working', p.pid, true, [p.pid]]);
  // The pid is reused by another program: no longer live, nothing signalled.
  proc.remove(p.pid);
  proc.add({ pid: p.pid, argv: ['vim', 'notes'], exe: '/usr/bin/vim', cwd: '/home/dev/p2', startTicks: 900 });
  assert.equal((await src.end(killed)).outcome, 'not_running');
  assert.equal(proc.signals.length, 0);
  // Back to an OpenCode process: end sends SIGTERM (its clean stop).
  proc.remove(p.pid);
  proc.add({ pid: p.pid, argv: ['opencode', '-s', killed], exe: EXE, cwd: '/home/dev/p2', startTicks: 950 });
  assert.deepEqual(await src.end(killed), { outcome: 'ended', signal: 'SIGTERM', pid: p.pid });
  assert.deepEqual(proc.signals.map((x) => x.signal), ['SIGTERM']);
  st.close();
});

test('pid reused between the scan and the signal (start time changed): not signalled', async () => {
  const { home, st, killed } = setup();
  const proc = createFakeProc();
  const p = proc.add({ argv: ['opencode', '-s', killed], exe: EXE, cwd: '/p', startTicks: 500 });
  const racing = { ...proc, read: (pid: number) => { const r = proc.read(pid); return r && { ...r, startTicks: r.startTicks + 1 }; } };
  const src = source(home, { proc: racing });
  assert.equal((await src.end(killed)).outcome, 'not_running');
  assert.deepEqual(proc.signals, []);
  assert.equal(p.pid > 0, true);
  st.close();
});

test('--port TUI: exact status from its server; waiting on a permission; end aborts then SIGTERMs', async () => {
  const { home, st, done } = setup();
  const proc = createFakeProc();
  const p = proc.add({ argv: ['opencode', '--port', '4097'], exe: EXE, cwd: '/home/dev/project oc\nweird', startedAtMs: NOW - 60_000 });
  const url = 'http://127.0.0.1:4097';
  const http = fakeHttp({ [url]: { status: new Map([[done, { type: 'busy' }]]), permissions: [{ id: 'per_1', sessionId: done, reason: 'bash: touch x', createdMs: NOW - 100 }] } });
  const src = source(home, { proc, http });
  const s = await src.get(done);
  assert.deepEqual([s?.live, s?.status, s?.waitingFor, s?.canEnd, s?.statusSince], [true, 'waiting', 'bash: touch x', true, new Date(NOW - 100).toISOString()]);
  assert.deepEqual(await src.end(done), { outcome: 'ended', signal: 'SIGTERM', pid: p.pid });
  assert.deepEqual(http.aborts, [`${url} ${done}`]);
  st.close();
});

test('a headless server: its busy session is live; end aborts the turn and never stops the server', async () => {
  const { home, st, done } = setup();
  const proc = createFakeProc();
  const p = proc.add({ argv: ['opencode', 'serve', '--port', '4096'], exe: EXE, cwd: '/srv' });
  const url = 'http://127.0.0.1:4096';
  const http = fakeHttp({ [url]: { status: new Map([[done, { type: 'busy' }]]), permissions: [] } });
  const src = source(home, { proc, http });
  assert.equal((await src.get(done))?.status, 'working');
  assert.deepEqual(await src.end(done), { outcome: 'ended', signal: 'abort', pid: p.pid });
  assert.deepEqual(proc.signals, []);
  st.close();
});

test('a cwd guess is live but cannot be ended; other programs and other dirs claim nothing', async () => {
  const { home, st, killed, done } = setup();
  const proc = createFakeProc();
  proc.add({ argv: ['opencode', '-c'], exe: EXE, cwd: '/home/dev/p2' });
  proc.add({ argv: ['opencode', 'debug', 'paths'], exe: EXE, cwd: '/home/dev/project oc\nweird' });
  proc.add({ argv: ['node', '/x/bin/opencode', '-c'], exe: '/usr/bin/node', cwd: '/home/dev/project oc\nweird' });
  const src = source(home, { proc });
  const k = await src.get(killed);
  assert.deepEqual([k?.live, k?.status, k?.canEnd], [true, 'working', false]);
  assert.equal((await src.end(killed)).outcome, 'unsupported');
  assert.deepEqual(proc.signals, []);
  assert.equal((await src.get(done))?.live, false);
  st.close();
});

test('an unreadable or missing store never stops the scan; ids are checked', async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-bad-'));
  assert.deepEqual(await source(home).list(), [], 'no store yet');
  fs.mkdirSync(path.join(home, 'opencode.db'));
  const a = source(home);
  assert.deepEqual(await a.list(), []);
  fs.rmdirSync(path.join(home, 'opencode.db'));
  fs.writeFileSync(path.join(home, 'opencode.db'), 'not a database at all, just text '.repeat(200));
  const b = source(home);
  assert.deepEqual(await b.list(), []);
  assert.equal(b.diagnostics().filesSkipped, 1);
  assert.match(b.diagnostics().errors[0] ?? '', /opencode db/);
  assert.equal(await b.get('../../etc/passwd'), undefined);
  await assert.rejects(b.end('ses_$(rm -rf ~)'), { code: 'invalid_id' });
  assert.equal(b.resumeArgv('nope'), null);
});

test('incremental: a warm start from the index and an unchanged store re-read nothing', async () => {
  const { home, st, done } = setup();
  const index = createMemoryTranscriptIndex();
  const first = source(home, { index });
  await first.list();
  assert.equal(first.diagnostics().linesParsed, 2);
  const warm = source(home, { index });
  assert.equal((await warm.get(done))?.title, 'Greet the fake user');
  assert.equal(warm.diagnostics().linesParsed, 0, 'nothing re-read');
  assert.equal(warm.diagnostics().filesScanned, 0, 'store not even opened');
  st.addMessage(done, 'msg_9', NOW - 10, userMessage(NOW - 10));
  await warm.list();
  assert.equal(warm.diagnostics().linesParsed, 1, 'only the changed session');
  st.close();
});

test('the legacy JSON tree is read when present; the SQLite store wins for the same id', async () => {
  const { home, st, done } = setup();
  const legacy = 'ses_0123456789abLegacyJsonTree';
  const write = (rel: string, v: unknown): void => {
    fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    fs.writeFileSync(path.join(home, rel), typeof v === 'string' ? v : JSON.stringify(v));
  };
  write(`storage/session/proj/${legacy}.json`, { id: legacy, directory: '/old', title: 'Old one', time: { created: 1, updated: 2 } });
  write(`storage/message/${legacy}/msg_01.json`, { role: 'user', time: { created: 1 } });
  write(`storage/message/${legacy}/msg_02.json`, { role: 'assistant', modelID: 'm', time: { created: 2, completed: 3 }, tokens: { input: 5, output: 1, cache: { read: 2 } }, cost: 0.5 });
  write(`storage/message/${legacy}/msg_03.json`, '{"role":');
  write(`storage/session/proj/${done}.json`, { id: done, directory: '/json', title: 'JSON copy', time: { created: 1 } });
  const src = source(home);
  const list = await src.list();
  const l = list.find((s) => s.id === legacy);
  assert.deepEqual([l?.title, l?.cwd, l?.model, l?.costUsd, l?.tokens.input, l?.tokens.cacheRead, l?.status], ['Old one', '/old', 'm', 0.5, 5, 2, 'ended']);
  assert.equal(list.find((s) => s.id === done)?.title, 'Greet the fake user');
  assert.equal(src.diagnostics().linesSkipped, 1, 'malformed message file counted');
  st.close();
});

test('a server that misses one status call keeps its sessions promptable for a few seconds, not longer', async () => {
  const { home, st, done } = setup();
  const proc = createFakeProc();
  proc.add({ argv: ['opencode', 'serve', '--port', '4096'], exe: EXE, cwd: '/home/dev/project oc\nweird' });
  const url = 'http://127.0.0.1:4096';
  const views: Record<string, ServerView> = { [url]: { status: new Map(), permissions: [] } };
  const http = fakeHttp(views);
  let now = NOW;
  const src = source(home, { proc, http, now: () => now });
  assert.equal((await src.get(done))?.promptable, true);
  delete views[url]; // the status call times out from now on
  now += 9_000;
  assert.equal((await src.get(done))?.promptable, true, 'within the grace: its last view stands');
  now += 2_000;
  assert.equal((await src.get(done))?.promptable, false, 'past it: no longer known to answer');
  st.close();
});

test('a listing hands out the session it built before while its summary, git answer and process are unchanged', async () => {
  const { home, st, done, killed } = setup();
  const proc = createFakeProc();
  let branch = 'main';
  const src = source(home, { proc, git: { read: () => ({ repoRoot: '/home/dev', branch }), clear: () => {} } });
  const byId = async (): Promise<Map<string, Session>> => new Map((await src.list()).map((s) => [s.id, s]));
  const first = await byId();
  const again = await byId();
  assert.equal(again.get(done), first.get(done), 'unchanged: the very object');
  assert.equal(again.get(killed), first.get(killed));
  branch = 'topic';
  const moved = await byId();
  assert.notEqual(moved.get(done), first.get(done), 'git says another branch: built again');
  assert.equal(moved.get(done)?.branch, 'topic');
  const p = proc.add({ argv: ['opencode', '-s', killed], exe: EXE, cwd: '/home/dev/p2', startTicks: 500 });
  const live = await byId();
  assert.equal(live.get(done), moved.get(done), 'the other session is still the same object');
  assert.deepEqual([live.get(killed)?.live, live.get(killed)?.status, live.get(killed)?.pid], [true, 'working', p.pid], 'claimed by a process: built anew');
  proc.remove(p.pid);
  st.addMessage(done, 'msg_9', NOW - 100, userMessage(NOW - 100));
  st.touchSession(done, NOW - 100);
  const changed = await byId();
  assert.notEqual(changed.get(done), moved.get(done), 'the store changed the session: built again');
  assert.equal(changed.get(done)?.lastActivityAt, new Date(NOW - 100).toISOString());
  assert.deepEqual([changed.get(killed)?.live, changed.get(killed)?.status], [false, 'stuck'], 'its process gone: dormant again');
  st.close();
});
