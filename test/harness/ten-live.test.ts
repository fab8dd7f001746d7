/**
 * Ten live sessions at once through one real daemon (issues 3 and 4): 4 interactive `claude` in tmux
 * panes, 3 `pi` and 3 `omp` in RPC mode (the fastest reliable way to get a live session: one prompt on
 * stdin, no TUI to wait for), all in one isolated HOME. `muster ls --json` must show each exactly once,
 * live and idle; a SIGKILLed one (one per harness) must read `live: false` within 2 s, timed from the
 * kill to the SSE `session.status.changed` event and confirmed by ls.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessDaemon, HarnessEnv, Tmux } from './kit/index.ts';
import type { Harness, Session } from '../../src/core/session.ts';

/** Bound on all ten becoming live and idle on a loaded 2-core machine, ms. */
const ALL_LIVE_MS = 180_000;

interface Agent {
  harness: Harness;
  pid: number;
  /** The RPC child (pi, omp); claude runs in a tmux pane. */
  child?: ChildProcess;
}

describe('ten live sessions across claude, pi and omp through one daemon', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-ten-'));
  let model: FakeModel;
  let tmux: Tmux;
  let daemon: HarnessDaemon;
  const agents: Agent[] = [];

  before(async () => {
    const clis = { claude: await ensureHarnessCli('claude'), pi: await ensureHarnessCli('pi'), omp: await ensureHarnessCli('omp') };
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    tmux = await startTmux(path.join(root, 'tmux'));
    // One root: one HOME holding ~/.claude, ~/.pi/agent and ~/.omp, as on a real machine.
    const envs = {
      claude: harnessEnv('claude', { root, modelUrl: model.url, binDir: clis.claude.binDir }),
      pi: harnessEnv('pi', { root, modelUrl: model.url, binDir: clis.pi.binDir }),
      omp: harnessEnv('omp', { root, modelUrl: model.url, binDir: clis.omp.binDir }),
    };
    daemon = await startHarnessDaemon({ homes: Object.values(envs), root });
    for (let i = 0; i < 4; i++) {
      const pane = await tmux.newPane([clis.claude.bin, '--permission-mode', 'manual'], { cwd: envs.claude.cwd, env: envs.claude.env });
      agents.push({ harness: 'claude', pid: pane.pid });
    }
    for (const name of ['pi', 'omp'] as const) {
      // All in the one project, as the claudes. (A project each left the omp sessions unlisted for 180 s in one
      // run: not understood yet.)
      for (let i = 0; i < 3; i++) agents.push(startRpcAgent(name, clis[name], envs[name], envs[name].cwd, `say hi from ${name} ${i}`));
    }
  });

  after(async () => {
    for (const a of agents) {
      try { process.kill(a.pid, 'SIGKILL'); } catch {}
    }
    await daemon?.close();
    await tmux?.kill();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const ownerOf = (list: Session[], pid: number): Session[] => list.filter((s) => s.live && s.pids.includes(pid));

  /** The listing with all ten live, from the first test; the kill tests use its ids. */
  let tenLive: Session[] = [];
  let stillLive = 10;

  /** SIGKILLs the first agent of `harness` and times live: false from the kill to the SSE event, then asks ls. */
  async function killAndTime(harness: Harness): Promise<number> {
    assert.equal(tenLive.filter((s) => s.live).length, 10, 'the ten-live listing came first');
    const victim = agents.find((a) => a.harness === harness)!;
    const id = ownerOf(tenLive, victim.pid)[0]!.id;
    const events = await daemon.events();
    process.kill(victim.pid, 'SIGKILL');
    const t0 = Date.now();
    try {
      // A session that never got a prompt has no transcript (Claude writes it at the first prompt): once its
      // process dies there is nothing to resume, so it leaves the list (session.removed) instead of turning
      // dormant. Either way it is no longer live.
      const e = await events.waitFor(
        `${harness} ${id} no longer live`,
        (x) => x.data['id'] === id && ((x.type === 'session.status.changed' && x.data['live'] === false) || x.type === 'session.removed'),
        10_000,
      );
      const ms = e.at - t0;
      const after = await daemon.listSessions();
      const s = after.find((x) => x.harness === harness && x.id === id);
      if (e.type === 'session.removed') assert.equal(s, undefined, `muster ls agrees for ${harness}: gone`);
      else {
        assert.equal(s?.live, false, `muster ls agrees for ${harness}`);
        assert.equal(s.status, 'ended');
      }
      stillLive--;
      assert.equal(after.filter((x) => x.live).length, stillLive, 'the others stay live');
      process.stdout.write(`${harness} SIGKILL → live: false on SSE in ${ms} ms\n`);
      return ms;
    } finally {
      events.close();
    }
  }

  it('muster ls --json shows each of the ten exactly once, live and idle', { timeout: ALL_LIVE_MS + 30_000 }, async () => {
    const allIdle = (list: Session[]): boolean => agents.every((a) => ownerOf(list, a.pid).some((s) => s.status === 'idle'));
    const list = await daemon.waitForList(allIdle, ALL_LIVE_MS, 'ten live idle sessions');
    const ids = list.map((s) => `${s.harness}:${s.id}`);
    assert.equal(new Set(ids).size, ids.length, 'no session listed twice');
    assert.equal(list.filter((s) => s.live).length, 10, `ten live sessions: ${JSON.stringify(list.map((s) => [s.harness, s.live, s.pids]))}`);
    for (const a of agents) {
      const owners = ownerOf(list, a.pid);
      assert.equal(owners.length, 1, `${a.harness} pid ${a.pid} owns exactly one session`);
      const s = owners[0]!;
      assert.equal(s.harness, a.harness);
      assert.equal(s.pid, a.pid);
      assert.equal(s.status, 'idle');
      // An RPC process does not name its session: three in one directory are matched by cwd, a guess that
      // is never signalled. Claude's registry names each session exactly.
      if (a.harness === 'claude') assert.equal(s.canEnd, true, `claude pid ${a.pid}: verified and exactly claimed`);
    }
    const perHarness = (h: Harness): number => list.filter((s) => s.live && s.harness === h).length;
    assert.deepEqual([perHarness('claude'), perHarness('pi'), perHarness('omp')], [4, 3, 3]);
    tenLive = list;
  });

  // Nothing is written on SIGKILL: only the daemon's liveness sweep can tell. The pi and omp RPC children
  // are reaped by this test process at once.
  it('a SIGKILLed pi, then omp, is live: false within 2 s (SSE), and muster ls agrees', { timeout: 60_000 }, async () => {
    for (const harness of ['pi', 'omp'] as const) {
      const ms = await killAndTime(harness);
      assert.ok(ms <= 2_000, `${harness}: live: false on SSE ${ms} ms after SIGKILL`);
    }
  });

  // A claude pane's process is reaped by tmux, which left killed pane processes zombies for 20 s and more
  // (tmux 3.3a here): the process port reports a zombie as dead, so the sweep sees the kill at once.
  it('a SIGKILLed claude in a tmux pane is live: false within 2 s (SSE), and muster ls agrees', { timeout: 60_000 }, async () => {
    const ms = await killAndTime('claude');
    assert.ok(ms <= 2_000, `claude: live: false on SSE ${ms} ms after SIGKILL`);
  });
});

/**
 * `pi|omp --mode rpc` with one prompt on stdin (kept open: closing it ends the session). The session
 * file, and so the session, appears after the first reply.
 */
function startRpcAgent(name: 'pi' | 'omp', cli: HarnessCli, h: HarnessEnv, cwd: string, prompt: string): Agent {
  fs.mkdirSync(cwd, { recursive: true });
  const child = spawn(cli.bin, [...h.argvPrefix, '--mode', 'rpc'], { cwd, env: h.env, stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.on('error', () => {}); // the child may die (SIGKILL) with the pipe open
  child.stdin.write(JSON.stringify({ id: 'p0', type: 'prompt', message: prompt }) + '\n');
  if (child.pid === undefined) throw new Error(`${name} --mode rpc did not start`);
  return { harness: name, pid: child.pid, child };
}
