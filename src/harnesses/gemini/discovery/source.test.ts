// The Gemini source on real chat files (fixtures/chats/, written by Gemini CLI 0.61.0) with a fake
// process table and hand-made hook sightings: merging a resumed session's two files, a reply written
// twice, titles, live by hook / argv / guess, unknown status, pid reuse, ending the worker.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createFakeProc, type FakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import type { HookSighting } from '../../adapter.ts';
import { createGeminiSource } from './source.ts';
import { INTERACTIVE, PRINTED, SUMMARISED, tempGeminiHome, type GeminiHome } from './gemini-fixtures.test-support.ts';

const BOOT = 1_700_000_000_000;
const NODE = '/usr/bin/node';
const SCRIPT = '/opt/gemini/node_modules/.bin/gemini';

/** A loader and its worker, as Gemini CLI starts them; the worker's environment says it is one. */
function geminiPair(proc: FakeProc, o: { loader: number; worker: number; cwd: string; args?: string[]; startTicks?: number }): void {
  const ticks = o.startTicks ?? 100;
  proc.add({ pid: o.loader, ppid: 1, exe: NODE, argv: ['node', SCRIPT, ...(o.args ?? [])], comm: 'node', cwd: o.cwd, startTicks: ticks });
  proc.add({ pid: o.worker, ppid: o.loader, exe: NODE, argv: [NODE, '--max-old-space-size=8000', SCRIPT, ...(o.args ?? [])], comm: 'node', cwd: o.cwd, startTicks: ticks + 5 });
}

function withEnviron(proc: FakeProc, workers: number[]): FakeProc {
  return { ...proc, environ: (pid: number) => new Map(workers.includes(pid) ? [['GEMINI_CLI_NO_RELAUNCH', 'true']] : []) };
}

function sightings(list: HookSighting[]) {
  return { of: (h: string) => (h === 'gemini' ? [...list].reverse() : []) };
}

function source(h: GeminiHome, proc = createFakeProc({ bootTimeMs: BOOT }), seen: HookSighting[] = []) {
  return createGeminiSource({ home: h.home, proc, index: createMemoryTranscriptIndex(), sightings: sightings(seen) });
}

const at = (ticks: number) => BOOT + ticks * 10;

describe('gemini source on real chat files', () => {
  it('lists dormant sessions: a resume\'s second file merged, a reply written twice counted once, titles', async () => {
    const h = tempGeminiHome();
    try {
      const list = await source(h).list();
      assert.deepEqual(list.map((s) => s.id).sort(), [INTERACTIVE, PRINTED, SUMMARISED].sort(), 'one session per id');
      const printed = list.find((s) => s.id === PRINTED)!;
      assert.equal(printed.title, 'hello there', 'the first prompt, not the session context');
      assert.deepEqual(printed.tokens, { input: 200, output: 20, cacheRead: 0, cacheWrite: 0 }, 'both turns, from the first file');
      assert.equal(printed.model, 'gemini-fake');
      assert.equal(printed.costUsd, null, 'a model the price table does not know costs null, never $0');
      assert.equal(printed.cwd, h.cwd);
      assert.equal(printed.startedAt, '2026-12-01T12:50:13.983Z');
      assert.equal(printed.lastActivityAt, '2026-12-01T12:53:39.865Z');
      assert.deepEqual([printed.live, printed.status, printed.canEnd, printed.pid], [false, 'ended', false, null]);
      assert.deepEqual(printed.resumeArgv, ['gemini', '--resume', PRINTED]);
      const interactive = list.find((s) => s.id === INTERACTIVE)!;
      assert.deepEqual(interactive.tokens, { input: 200, output: 20, cacheRead: 0, cacheWrite: 0 }, 'the tool-call reply is written twice under one id');
      assert.equal(list.find((s) => s.id === SUMMARISED)?.title, 'Fake summary', '$set.summary is the title');
    } finally {
      h.cleanup();
    }
  });

  it('prices each model\'s tokens where the table knows it; maps cached and thought tokens', async () => {
    const h = tempGeminiHome([]);
    try {
      const id = '33333333-3333-4333-8333-333333333333';
      fs.writeFileSync(path.join(h.chats, 'session-2026-12-01T13-00-33333333.jsonl'), [
        { sessionId: id, projectHash: 'x', startTime: '2026-12-01T13:00:00.000Z', lastUpdated: '2026-12-01T13:00:00.000Z', kind: 'main' },
        { id: 'u1', timestamp: '2026-12-01T13:00:01.000Z', type: 'user', content: [{ text: 'price me' }] },
        { id: 'g1', timestamp: '2026-12-01T13:00:02.000Z', type: 'gemini', content: 'ok', tokens: { input: 1000, output: 100, cached: 400, thoughts: 50, tool: 10, total: 1160 }, model: 'gpt-4o' },
      ].map((r) => JSON.stringify(r)).join('\n') + '\n');
      const s = (await source(h).list())[0]!;
      assert.deepEqual(s.tokens, { input: 610, output: 150, cacheRead: 400, cacheWrite: 0 }, 'input without the cached part, plus tool-use prompt; thoughts are output');
      assert.ok(s.costUsd !== null && s.costUsd > 0);
    } finally {
      h.cleanup();
    }
  });

  it('reads only what was appended since the last listing, through the transcript index', async () => {
    const h = tempGeminiHome();
    try {
      const src = source(h);
      await src.list();
      const file = path.join(h.chats, 'session-2026-12-01T12-51-2ff51962.jsonl');
      fs.appendFileSync(file, `${JSON.stringify({ id: 'g9', timestamp: '2026-12-01T13:10:00.000Z', type: 'gemini', content: 'more', tokens: { input: 5, output: 5 }, model: 'gemini-fake' })}\n{"half": `);
      const s = await src.get(SUMMARISED);
      assert.deepEqual(s?.tokens, { input: 105, output: 15, cacheRead: 0, cacheWrite: 0 });
      assert.equal(src.diagnostics().linesSkipped, 0, 'a half-written last line waits');
    } finally {
      h.cleanup();
    }
  });

  it('a session that never got a prompt is listed only while live', async () => {
    const h = tempGeminiHome([]);
    try {
      const id = '44444444-4444-4444-8444-444444444444';
      fs.writeFileSync(path.join(h.chats, 'session-2026-12-01T13-00-44444444.jsonl'), `${JSON.stringify({ sessionId: id, startTime: '2026-12-01T13:00:00.000Z', kind: 'main' })}\n${JSON.stringify({ $set: { messages: [{ id: 'c', type: 'user', content: [{ text: '<session_context>\nx\n</session_context>' }] }] } })}\n`);
      assert.deepEqual(await source(h).list(), []);
      const proc = createFakeProc({ bootTimeMs: BOOT });
      geminiPair(proc, { loader: 50, worker: 51, cwd: h.cwd, args: ['--session-id', id] });
      const live = await source(h, withEnviron(proc, [51])).list();
      assert.deepEqual(live.map((s) => [s.id, s.live, s.pid]), [[id, true, 51]]);
    } finally {
      h.cleanup();
    }
  });
});

describe('gemini liveness: hooks, argv, guesses', () => {
  it('a hook sighting makes its worker\'s session live with the hook\'s status; the loader is never the pid', async () => {
    const h = tempGeminiHome();
    try {
      const proc = createFakeProc({ bootTimeMs: BOOT });
      geminiPair(proc, { loader: 70, worker: 71, cwd: h.cwd, startTicks: 100 });
      const seen: HookSighting[] = [{ sessionId: PRINTED, pid: 71, at: at(200), status: 'waiting', waitingFor: 'permission: rm -rf build' }];
      const s = (await source(h, withEnviron(proc, [71]), seen).get(PRINTED))!;
      assert.deepEqual([s.live, s.pid, s.pids, s.status, s.waitingFor, s.canEnd], [true, 71, [71], 'waiting', 'permission: rm -rf build', true]);
      assert.equal(s.statusKnown, undefined, 'known');
      assert.equal(s.statusSince, new Date(at(200)).toISOString());
    } finally {
      h.cleanup();
    }
  });

  it('without a readable environment the worker is the gemini process with no gemini child', async () => {
    const h = tempGeminiHome();
    try {
      const proc = createFakeProc({ bootTimeMs: BOOT });
      geminiPair(proc, { loader: 70, worker: 71, cwd: h.cwd, args: ['--resume', PRINTED] });
      const s = (await source(h, proc).get(PRINTED))!;
      assert.deepEqual([s.live, s.pids, s.status, s.statusKnown], [true, [71], 'idle', false], 'argv names it; no hook: status unknown');
    } finally {
      h.cleanup();
    }
  });

  it('a reused pid (started after the hook event) does not inherit the sighting', async () => {
    const h = tempGeminiHome();
    try {
      const proc = createFakeProc({ bootTimeMs: BOOT });
      geminiPair(proc, { loader: 70, worker: 71, cwd: '/elsewhere', startTicks: 5000 });
      const seen: HookSighting[] = [{ sessionId: PRINTED, pid: 71, at: at(200), status: 'working', waitingFor: null }];
      assert.equal((await source(h, withEnviron(proc, [71]), seen).get(PRINTED))?.live, false);
    } finally {
      h.cleanup();
    }
  });

  it('a worker whose newest sighting is its session\'s end claims nothing; a later session in the same process wins', async () => {
    const h = tempGeminiHome();
    try {
      const proc = createFakeProc({ bootTimeMs: BOOT });
      geminiPair(proc, { loader: 70, worker: 71, cwd: h.cwd, args: ['--session-id', PRINTED] });
      const ended: HookSighting = { sessionId: PRINTED, pid: 71, at: at(300), status: 'ended', waitingFor: null };
      const src = source(h, withEnviron(proc, [71]), [{ sessionId: PRINTED, pid: 71, at: at(200), status: 'idle', waitingFor: null }, ended]);
      assert.ok((await src.list()).every((s) => !s.live), 'exiting: not live, even though its argv names the session');
      const switched = source(h, withEnviron(proc, [71]), [ended, { sessionId: SUMMARISED, pid: 71, at: at(400), status: 'working', waitingFor: null }]);
      const list = await switched.list();
      assert.deepEqual(list.filter((s) => s.live).map((s) => [s.id, s.status]), [[SUMMARISED, 'working']]);
    } finally {
      h.cleanup();
    }
  });

  it('a worker without hooks or a named session takes the newest session of its cwd written since it started, status unknown; two such workers are ambiguous', async () => {
    const h = tempGeminiHome();
    try {
      const now = Date.now();
      const hourAgo = new Date(now - 3_600_000);
      for (const f of fs.readdirSync(h.chats)) fs.utimesSync(path.join(h.chats, f), hourAgo, hourAgo);
      fs.utimesSync(path.join(h.chats, 'session-2026-12-01T12-51-2ff51962.jsonl'), new Date(now), new Date(now));
      const startTicks = Math.floor((now - 60_000 - BOOT) / 10);
      const proc = createFakeProc({ bootTimeMs: BOOT });
      geminiPair(proc, { loader: 70, worker: 71, cwd: h.cwd, startTicks });
      const one = (await source(h, withEnviron(proc, [71])).list()).filter((s) => s.live);
      assert.deepEqual(one.map((s) => [s.id, s.status, s.statusKnown, s.canEnd]), [[SUMMARISED, 'idle', false, true]]);
      // Regression: at start Gemini writes a summary into an older session, after its own new file.
      const fresh = '99999999-9999-4999-8999-999999999999';
      const freshFile = path.join(h.chats, 'session-2026-12-01T13-30-99999999.jsonl');
      fs.writeFileSync(freshFile, `${JSON.stringify({ sessionId: fresh, startTime: new Date(now - 30_000).toISOString(), kind: 'main' })}\n`);
      fs.utimesSync(freshFile, new Date(now - 30_000), new Date(now - 30_000));
      const own = (await source(h, withEnviron(proc, [71])).list()).filter((s) => s.live);
      assert.deepEqual(own.map((s) => s.id), [fresh], 'the session its file started since the worker, not the one summarised later');
      fs.rmSync(freshFile);
      geminiPair(proc, { loader: 80, worker: 81, cwd: h.cwd, startTicks });
      const two = (await source(h, withEnviron(proc, [71, 81])).list()).filter((s) => s.live);
      assert.ok(two.every((s) => s.canEnd === false), 'guessed among several: shown, never ended');
    } finally {
      h.cleanup();
    }
  });

  it('end() sends SIGTERM to the verified worker, never to its loader, and refuses a pid reused since', async () => {
    const h = tempGeminiHome();
    try {
      const proc = createFakeProc({ bootTimeMs: BOOT });
      geminiPair(proc, { loader: 70, worker: 71, cwd: h.cwd, args: ['--session-id', INTERACTIVE] });
      const src = source(h, withEnviron(proc, [71]));
      assert.deepEqual(await src.end(INTERACTIVE), { outcome: 'ended', signal: 'SIGTERM', pid: 71 });
      assert.deepEqual(proc.signals.map((x) => [x.pid, x.signal]), [[71, 'SIGTERM']]);
      assert.equal((await src.end(INTERACTIVE)).outcome, 'not_running');
      assert.equal((await src.end(PRINTED)).outcome, 'not_running');
      await assert.rejects(src.end('../x'), /not a gemini session id/);
    } finally {
      h.cleanup();
    }
  });

  it('tails a session: prompts, replies and tool calls, a reply written twice shown once', async () => {
    const h = tempGeminiHome();
    try {
      const tail = await source(h).tail!(INTERACTIVE, 10);
      assert.deepEqual(tail.map((m) => m.role), ['user', 'tool', 'tool', 'assistant']);
      assert.equal(tail[0]?.text, 'RUNCMD: echo interactive > i.txt');
      assert.match(tail[1]?.text ?? '', /^→ run_shell_command: echo interactive/);
      assert.equal(tail.at(-1)?.text, 'tool done');
    } finally {
      h.cleanup();
    }
  });
});
