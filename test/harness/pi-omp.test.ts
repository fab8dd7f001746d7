/**
 * Real-harness tier for the pi and omp sources: the pinned `pi` (0.73.1) and `omp` (18.2.3) run
 * offline against the fake model in print mode, in RPC mode and interactively in a private tmux,
 * ended by SIGTERM (through `muster end`) and by SIGKILL; every step is asserted through what
 * `muster ls --json` reports from a real daemon (the built CLI) reading that scenario's isolated home.
 * Stale run-file counts, which ls cannot show, come from the daemon's GET /api/diagnostics.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, lastUserText, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel, FakeRequest } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessDaemon, HarnessEnv, Pane, Tmux } from './kit/index.ts';

const SCENARIO_MS = 150_000;

for (const name of ['pi', 'omp'] as const) {
  describe(`${name} against the fake model`, () => {
    let model: FakeModel;
    let cli: HarnessCli;
    let tmux: Tmux;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `muster-harness-${name}-`));
    const started: number[] = [];
    const daemons: HarnessDaemon[] = [];
    let n = 0;

    before(async () => {
      cli = await ensureHarnessCli(name);
      model = await startFakeModel();
      model.onRequest(keywordHandler());
      tmux = await startTmux(path.join(root, 'tmux'));
    });

    after(async () => {
      for (const pid of started) {
        try { process.kill(pid, 'SIGKILL'); } catch {}
      }
      for (const d of daemons) await d.close();
      await tmux?.kill();
      await model?.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    /** A fresh isolated home per scenario, and a daemon that reads exactly that home. */
    async function scenario(): Promise<{ h: HarnessEnv; d: HarnessDaemon }> {
      const sRoot = path.join(root, `s${++n}`);
      const h = harnessEnv(name, { root: sRoot, modelUrl: model.url, binDir: cli.binDir });
      const d = await startHarnessDaemon({ homes: [h], root: sRoot });
      daemons.push(d);
      return { h, d };
    }

    const interactiveArgs = (h: HarnessEnv): string[] => [...h.argvPrefix, ...(name === 'omp' ? ['--no-title'] : [])];

    async function startInteractive(h: HarnessEnv): Promise<Pane> {
      const pane = await tmux.newPane([cli.bin, ...interactiveArgs(h)], { cwd: h.cwd, env: h.env });
      started.push(pane.pid);
      // The editor takes keys once the status line (model name) is drawn; omp needs several seconds.
      await tmux.waitForText(pane.id, name === 'pi' ? /fake-model/ : /Fake OpenAI/, 60_000);
      await new Promise((r) => setTimeout(r, 1000));
      return pane;
    }

    /** Types a prompt and submits it, pressing Enter again if the TUI swallowed the first one. */
    async function type(pane: Pane, text: string): Promise<void> {
      await tmux.sendKeys(pane.id, text, { literal: true });
      await tmux.waitForText(pane.id, new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 10_000);
      const mark = model.requests.length;
      const sent = (req: FakeRequest): boolean => lastUserText(req).includes(text);
      const seen = (): boolean => model.requests.slice(mark).some(sent);
      for (let attempt = 0; attempt < 3 && !seen(); attempt++) {
        await tmux.sendKeys(pane.id, 'Enter');
        const deadline = Date.now() + 5_000;
        while (!seen() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(seen(), `the TUI sent "${text}" to the model`);
    }

    it(`${name} -p: dormant after exit, with title, tokens and cost`, { timeout: SCENARIO_MS }, async () => {
      const { h, d } = await scenario();
      const r = await runCli(cli.bin, [...h.argvPrefix, '-p', 'TOOL_BASH please'], { cwd: h.cwd, env: h.env, timeoutMs: 90_000 });
      assert.equal(r.code, 0, r.stderr);
      // The last records may still be on their way through the daemon's watch, and the exit is seen by the
      // liveness sweep (every 500 ms), which can come after the last record was read.
      const [s, ...rest] = await d.waitForList((l) => l.some((x) => x.tokens.output > 0 && x.costUsd !== null && !x.live), 15_000, 'print session listed and dormant');
      assert.equal(rest.length, 0);
      assert.ok(s);
      assert.equal(s.live, false);
      assert.equal(s.status, 'ended');
      assert.equal(s.title, 'TOOL_BASH please');
      assert.equal(s.model, 'fake-model');
      assert.equal(s.cwd, h.cwd);
      assert.ok(s.tokens.input > 0 && s.tokens.output > 0, JSON.stringify(s.tokens));
      assert.equal(s.costUsd, 0, 'the fake model prices everything at 0 and the records say so');
      assert.deepEqual(s.resumeArgv, name === 'pi' ? ['pi', '--session', s.id] : ['omp', '--resume', s.id]);
    });

    it(`${name} --mode rpc: listed once its file exists, working during a slow turn, idle after, renamed, dormant after stdin closes`, { timeout: SCENARIO_MS }, async () => {
      const { h, d } = await scenario();
      const rpc = startRpc(cli, h);
      started.push(rpc.child.pid ?? 0);
      // The session file appears only after the first assistant message, so the first turn is invisible.
      rpc.send({ id: 'p0', type: 'prompt', message: 'say hi' });
      // omp (bun) took over 30 s to write its first reply on a loaded 2-core machine.
      const first = await d.waitFor((s) => s.live && s.status === 'idle', 90_000, 'rpc session live and idle');
      assert.equal(first.pid, rpc.child.pid);
      assert.equal(first.canEnd, true);
      assert.equal(first.title, 'say hi');
      const state = await rpc.request({ id: 's1', type: 'get_state' });
      assert.equal(state['sessionId'], first.id, 'the listed id is the one the harness reports');
      rpc.send({ id: 'p1', type: 'prompt', message: 'SLOW4 hello over rpc' });
      await d.waitFor((s) => s.id === first.id && s.live && s.status === 'working', 15_000, 'rpc session working');
      const idle = await d.waitFor((s) => s.id === first.id && s.live && s.status === 'idle', 30_000, 'rpc session idle after agent_end');
      assert.ok(idle.tokens.input > first.tokens.input, 'the second turn adds tokens');
      await rpc.request({ id: 'n1', type: 'set_session_name', name: 'rpc-demo' });
      await d.waitFor((s) => s.id === first.id && s.title === 'rpc-demo', 10_000, 'rpc session renamed');
      rpc.child.stdin.end();
      assert.equal(await rpc.exited, 0);
      const gone = await d.waitFor((s) => s.id === first.id && !s.live, 10_000, 'rpc session dormant');
      assert.equal(gone.status, 'ended');
      assert.equal(gone.title, 'rpc-demo');
      if (name === 'omp') assert.equal((await d.diagnostics('omp')).staleRegistryFiles, 1, 'omp leaves its run file behind on stdin close');
    });

    it(`${name} interactive in tmux: idle → working → idle, then ended by the source with SIGTERM`, { timeout: SCENARIO_MS }, async () => {
      const { h, d } = await scenario();
      const pane = await startInteractive(h);
      await type(pane, 'say hi');
      const first = await d.waitFor((s) => s.live && s.pids.includes(pane.pid) && s.status === 'idle', 40_000, 'interactive session live and idle');
      assert.equal(first.title, 'say hi');
      await type(pane, 'SLOW4 hi interactive');
      await d.waitFor((s) => s.id === first.id && s.live && s.status === 'working', 20_000, 'interactive session working');
      const idle = await d.waitFor((s) => s.id === first.id && s.status === 'idle', 30_000, 'interactive session idle again');
      assert.equal(idle.canEnd, true);
      // `muster end` goes through the daemon to the source's end(): SIGTERM for pi and omp.
      const r = await d.muster(['end', idle.id]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.json, { ok: true, ended: true, id: idle.id });
      const ended = await d.waitFor((s) => s.id === first.id && !s.live, 20_000, 'dormant after SIGTERM');
      assert.equal(ended.status, 'ended');
      assert.ok(await tmux.isDead(pane.id), 'the pane process exited');
      assert.equal((await d.diagnostics(name)).staleRegistryFiles, 0, 'SIGTERM cleans up run files');
      assert.equal((await d.muster(['end', idle.id])).json.error?.code, 'not_running');
    });

    it(`${name} interactive in tmux, SIGKILL: dormant, leftovers counted, resumable`, { timeout: SCENARIO_MS }, async () => {
      const { h, d } = await scenario();
      const pane = await startInteractive(h);
      await type(pane, 'hello before the kill');
      const idle = await d.waitFor((s) => s.live && s.pids.includes(pane.pid) && s.status === 'idle', 40_000, 'interactive session idle');
      process.kill(pane.pid, 'SIGKILL');
      const dead = await d.waitFor((s) => s.id === idle.id && !s.live, 20_000, 'dormant after SIGKILL');
      assert.equal(dead.status, 'ended');
      if (name === 'omp') assert.equal((await d.diagnostics('omp')).staleRegistryFiles, 1, 'the SIGKILLed run file is stale');
      assert.ok(dead.resumeArgv?.includes(dead.id));
    });
  });
}

interface Rpc {
  child: ChildProcessWithoutNullStreams;
  send(cmd: object): void;
  /** Sends a command with an id and resolves with its response's data. */
  request(cmd: { id: string } & Record<string, unknown>): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

/** A minimal RPC driver: strict LF-delimited JSONL on stdin/stdout (never readline). */
function startRpc(cli: HarnessCli, h: HarnessEnv): Rpc {
  const child = spawn(cli.bin, [...h.argvPrefix, '--mode', 'rpc'], { cwd: h.cwd, env: h.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiters = new Map<string, (data: Record<string, unknown>) => void>();
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        const msg = JSON.parse(line) as Record<string, unknown>;
        if (msg['type'] === 'response' && typeof msg['id'] === 'string') waiters.get(msg['id'])?.((msg['data'] ?? {}) as Record<string, unknown>);
      } catch {}
    }
  });
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const send = (cmd: object): void => void child.stdin.write(JSON.stringify(cmd) + '\n');
  return {
    child, send, exited,
    request: (cmd) => new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no response to ${cmd.type as string}`)), 20_000);
      waiters.set(cmd.id, (data) => { clearTimeout(t); resolve(data); });
      send(cmd);
    }),
  };
}

