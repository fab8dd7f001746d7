/**
 * Real-harness tier for the Codex source: the pinned `codex` CLI (0.171.0) runs offline against the fake
 * model — `codex exec` headless, the TUI in a private tmux embedded (`--no-daemon`) and daemon-backed —
 * and every step is asserted through what the source lists. `listSessions` is the seam the lead will
 * switch to `muster ls --json` against the real daemon.
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
import { ensureHarnessCli, harnessEnv, runCli, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessEnv, Tmux } from './kit/index.ts';
import { createCodexSource } from '../../src/sources/codex/index.ts';
import type { CodexSource } from '../../src/sources/codex/index.ts';
import { createProc } from '../../src/sources/proc/index.ts';
import type { Session } from '../../src/sources/session.ts';

const SCENARIO_MS = 180_000;
const proc = createProc();

describe('codex 0.171.0 against the fake model', () => {
  let model: FakeModel;
  let cli: HarnessCli;
  let tmux: Tmux;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-codex-'));
  const children: ChildProcess[] = [];
  /** Pids this file started outside `children` (TUIs, daemons): killed by pid at the end. */
  const started = new Set<number>();
  let n = 0;

  before(async () => {
    cli = await ensureHarnessCli('codex');
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    tmux = await startTmux(path.join(root, 'tmux'));
  });

  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) { try { process.kill(-(c.pid as number), 'SIGKILL'); } catch {} }
    for (const pid of started) { try { process.kill(pid, 'SIGKILL'); } catch {} }
    await tmux?.kill();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const freshEnv = (daemon = false): HarnessEnv =>
    harnessEnv('codex', { root: path.join(root, `s${++n}`), modelUrl: model.url, binDir: cli.binDir, codexDaemon: daemon });
  const sources = new Map<string, CodexSource>();
  /** What Muster reports for this CODEX_HOME (later: `muster ls --json`). One source per home, so reads are incremental. */
  const source = (h: HarnessEnv): CodexSource => {
    let s = sources.get(h.configDir);
    if (!s) sources.set(h.configDir, (s = createCodexSource({ home: h.configDir, proc })));
    return s;
  };
  const listSessions = (h: HarnessEnv): Promise<Session[]> => source(h).list();

  async function waitForSession(h: HarnessEnv, what: string, pred: (s: Session) => boolean, timeoutMs = 60_000): Promise<Session> {
    const deadline = Date.now() + timeoutMs;
    let last: Session[] = [];
    for (;;) {
      last = await listSessions(h);
      const hit = last.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms; sessions: ${JSON.stringify(last, null, 1)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** `codex exec <prompt>` in the background, in its own process group. */
  function execInBackground(h: HarnessEnv, prompt: string): ChildProcess {
    const c = spawn(cli.bin, ['exec', '--skip-git-repo-check', prompt], { cwd: h.cwd, env: h.env, stdio: 'ignore', detached: true });
    children.push(c);
    return c;
  }
  const exited = (c: ChildProcess): Promise<void> =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', () => r()));
  const lockFile = (h: HarnessEnv, id: string): string => path.join(h.configDir, 'thread-writer-locks', `${id}.lock`);
  const rolloutText = (h: HarnessEnv, id: string): string => {
    const dir = path.join(h.configDir, 'sessions');
    const files = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith(`${id}.jsonl`));
    return files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('');
  };

  it('codex exec: dormant after exit, tokens, title, model and cwd right', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const r = await runCli(cli.bin, ['exec', '--skip-git-repo-check', '--json', 'say hi from exec'], { cwd: h.cwd, env: h.env, timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stderr);
    const usage = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; usage?: { input_tokens: number; output_tokens: number } })
      .find((e) => e.type === 'turn.completed')?.usage;
    const list = await listSessions(h);
    assert.equal(list.length, 1);
    const s = list[0] as Session;
    assert.equal(s.live, false);
    assert.equal(s.status, 'ended');
    assert.equal(s.title, 'say hi from exec');
    assert.equal(s.model, 'fake-model');
    assert.equal(s.cwd, fs.realpathSync(h.cwd));
    assert.deepEqual(s.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }, 'the fake bills 100 in / 10 out per request');
    assert.equal(s.tokens.input + s.tokens.cacheRead, usage?.input_tokens);
    assert.equal(s.tokens.output, usage?.output_tokens);
    assert.deepEqual(s.resumeArgv, ['codex', 'resume', s.id]);
    assert.equal(s.canEnd, false);
  });

  it('codex exec interrupted by SIGINT (Muster end): live and working, then ended with turn_aborted', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const c = execInBackground(h, 'SLOW60 exec turn to interrupt');
    const live = await waitForSession(h, 'live exec', (s) => s.live && s.status === 'working');
    assert.ok(live.pid && live.canEnd);
    assert.ok(fs.existsSync(lockFile(h, live.id)));
    const r = await source(h).end(live.id);
    assert.equal(r.outcome, 'ended');
    assert.equal(r.outcome === 'ended' ? r.signal : '', 'SIGINT');
    await exited(c);
    const after = await waitForSession(h, 'dormant after SIGINT', (s) => s.id === live.id && !s.live, 30_000);
    assert.equal(after.status, 'ended');
    assert.match(rolloutText(h, live.id), /"type":"turn_aborted"/);
    assert.equal(fs.existsSync(lockFile(h, live.id)), false, 'a clean SIGINT deletes the lock file');
  });

  it('codex exec killed with SIGKILL leaves a stale lock that does not read as live', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const c = execInBackground(h, 'SLOW60 exec turn to kill');
    const live = await waitForSession(h, 'live exec', (s) => s.live);
    process.kill(-(c.pid as number), 'SIGKILL');
    await exited(c);
    const after = await waitForSession(h, 'dormant after SIGKILL', (s) => s.id === live.id && !s.live, 30_000);
    assert.equal(after.status, 'ended');
    assert.equal(after.canEnd, false);
    assert.ok(fs.existsSync(lockFile(h, live.id)), 'SIGKILL leaves the lock file behind');
    assert.ok(source(h).diagnostics().staleRegistryFiles >= 1);
    assert.equal((await source(h).end(live.id)).outcome, 'not_running');
  });
});
