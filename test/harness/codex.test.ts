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
import { keywordHandler, lastUserText, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, runCli, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessEnv, Tmux } from './kit/index.ts';
import { createCodexSource } from '../../src/harnesses/codex/discovery/index.ts';
import type { CodexSource } from '../../src/harnesses/codex/discovery/index.ts';
import { createProc } from '../../src/discovery/proc/index.ts';
import type { Session } from '../../src/core/session.ts';
import { priceTokens } from '../../src/discovery/pricing/index.ts';

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

  async function waitForSession(h: HarnessEnv, what: string, pred: (s: Session) => boolean, timeoutMs = 60_000, everyMs = 200): Promise<Session> {
    const deadline = Date.now() + timeoutMs;
    let last: Session[] = [];
    for (;;) {
      last = await listSessions(h);
      const hit = last.find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms; sessions: ${JSON.stringify(last, null, 1)}`);
      await new Promise((r) => setTimeout(r, everyMs));
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

  it('codex exec -m A, then exec -m B resume: each turn priced at its own model', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const first = await runCli(cli.bin, ['exec', '--skip-git-repo-check', '-m', 'gpt-5-codex', '--json', 'first turn'], { cwd: h.cwd, env: h.env, timeoutMs: 120_000 });
    assert.equal(first.code, 0, first.stderr);
    const id = (JSON.parse(first.stdout.split('\n')[0] ?? '{}') as { thread_id?: string }).thread_id ?? '';
    const second = await runCli(cli.bin, ['exec', '--skip-git-repo-check', '-m', 'gpt-5-mini', '--json', 'resume', id, 'second turn'], { cwd: h.cwd, env: h.env, timeoutMs: 120_000 });
    assert.equal(second.code, 0, second.stderr);
    const s = (await listSessions(h)).find((x) => x.id === id);
    assert.equal(s?.model, 'gpt-5-mini');
    assert.deepEqual(s?.tokens, { input: 200, output: 10 * 2, cacheRead: 0, cacheWrite: 0 });
    const each = { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 };
    assert.equal(s?.costUsd, (priceTokens('gpt-5-codex', each) ?? NaN) + (priceTokens('gpt-5-mini', each) ?? NaN));
  });

  it('codex exec interrupted by SIGINT (Muster end): live and working, then ended with turn_aborted', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const c = execInBackground(h, 'SLOW60 exec turn to interrupt');
    // Ended the moment it is listed live — before the exec has taken its prompt, when a SIGINT is lost
    // (and every SIGINT after it): end must wait for the prompt, not send into that window.
    const live = await waitForSession(h, 'live exec', (s) => s.live && s.status === 'working', 60_000, 5);
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
    // Kill mid-turn, once the rollout exists: a thread killed before its first record leaves nothing to list.
    await model.waitForRequest((req) => lastUserText(req).includes('exec turn to kill'), 60_000);
    const t0 = Date.now();
    const hasRollout = (): boolean => {
      try {
        return rolloutText(h, live.id) !== '';
      } catch {
        return false; // sessions/ not created yet
      }
    };
    while (!hasRollout() && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 100));
    process.kill(-(c.pid as number), 'SIGKILL');
    await exited(c);
    const after = await waitForSession(h, 'dormant after SIGKILL', (s) => s.id === live.id && !s.live, 30_000);
    assert.equal(after.status, 'ended');
    assert.equal(after.canEnd, false);
    assert.ok(fs.existsSync(lockFile(h, live.id)), 'SIGKILL leaves the lock file behind');
    assert.ok(source(h).diagnostics().staleRegistryFiles >= 1);
    assert.equal((await source(h).end(live.id)).outcome, 'not_running');
  });

  /**
   * Types a prompt into a TUI pane and submits it. A TUI still connecting to its daemon drops an Enter,
   * so Enter is repeated until the fake model sees the prompt (bounded).
   */
  async function prompt(paneId: string, text: string): Promise<void> {
    await tmux.waitForText(paneId, /Ask Codex to do anything|›/, 120_000);
    await tmux.sendKeys(paneId, text, { literal: true });
    for (let attempt = 0; attempt < 4; attempt++) {
      await new Promise((r) => setTimeout(r, 500));
      await tmux.sendKeys(paneId, 'Enter');
      try {
        await model.waitForRequest((req) => lastUserText(req).includes(text), 15_000);
        return;
      } catch { /* not submitted yet: press Enter again */ }
    }
    throw new Error(`prompt not submitted: ${text}\n${await tmux.capture(paneId)}`);
  }
  /** Quits a TUI with /quit (its popup may want a second Enter). */
  async function quit(paneId: string): Promise<void> {
    await tmux.sendKeys(paneId, '/quit', { literal: true });
    const deadline = Date.now() + 30_000;
    while (!(await tmux.isDead(paneId)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      await tmux.sendKeys(paneId, 'Enter');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  /** Remembers the daemon and updater this CODEX_HOME started, so they are ended by pid even if a step fails. */
  function adoptDaemons(h: HarnessEnv): number[] {
    const pids: number[] = [];
    for (const f of ['daemon.pid', 'daemon-updater.pid']) {
      try {
        const pid = (JSON.parse(fs.readFileSync(path.join(h.configDir, 'app-server-daemon', f), 'utf8')) as { pid?: number }).pid;
        // Only a process that runs from this test's CODEX_HOME is ours.
        if (typeof pid === 'number' && proc.read(pid)?.argv.some((a) => a.startsWith(h.configDir))) { pids.push(pid); started.add(pid); }
      } catch {}
    }
    return pids;
  }

  it('interactive codex --no-daemon (embedded): live in the TUI process while open, dormant after /quit', { timeout: SCENARIO_MS }, async () => {
    const h = freshEnv();
    const pane = await tmux.newPane([cli.bin, '--no-daemon'], { cwd: h.cwd, env: h.env });
    started.add(pane.pid);
    await waitForSession(h, 'embedded thread opened', (s) => s.live, 90_000);
    await prompt(pane.id, 'say hi from the embedded tui');
    const s = await waitForSession(h, 'embedded turn finished', (x) => x.live && x.status === 'idle' && x.tokens.output > 0, 90_000);
    // The TUI names its thread through a side call to the model; the name lands in session_index.jsonl.
    const named = fs.readFileSync(path.join(h.configDir, 'session_index.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; thread_name: string });
    assert.equal(s.title, named.filter((e) => e.id === s.id).at(-1)?.thread_name);
    assert.deepEqual(s.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });
    assert.ok(s.pid && s.pid !== pane.pid ? proc.read(s.pid)?.ppid === pane.pid : s.pid === pane.pid, 'the holder is the TUI (native binary under the npm shim)');
    assert.equal(s.canEnd, false, 'an embedded TUI is ended in its pane, not by signal');
    await quit(pane.id);
    const after = await waitForSession(h, 'dormant after /quit', (x) => x.id === s.id && !x.live, 30_000);
    assert.equal(after.status, 'ended');
    assert.equal(fs.existsSync(lockFile(h, s.id)), false);
  });

  describe('daemon-backed TUI (one CODEX_HOME, one daemon)', () => {
    let h: HarnessEnv;
    before(() => { h = freshEnv(true); });
    after(async () => {
      if (!h) return;
      adoptDaemons(h);
      await runCli(cli.bin, ['app-server', 'daemon', 'stop'], { cwd: h.cwd, env: h.env, timeoutMs: 20_000 }).catch(() => undefined);
      for (const pid of adoptDaemons(h)) { try { process.kill(pid, 'SIGKILL'); } catch {} }
    });

    it('daemon mode: live while attached, still live after the TUI detaches mid-turn, dormant after the daemon unloads it', { timeout: 300_000 }, async () => {
      const pane = await tmux.newPane([cli.bin], { cwd: h.cwd, env: h.env });
      started.add(pane.pid);
      await prompt(pane.id, 'say hi from the daemon tui');
      const s = await waitForSession(h, 'daemon thread claimed by the TUI', (x) => x.live && x.title !== '' && x.status === 'idle', 150_000);
      adoptDaemons(h);
      assert.equal(s.pids.includes(pane.pid), true, 'the TUI (shim) is one of the session pids');
      await prompt(pane.id, 'SLOW40 keep working after the tui leaves');
      await waitForSession(h, 'working', (x) => x.id === s.id && x.status === 'working', 60_000);
      process.kill(pane.pid, 'SIGTERM'); // a daemon client only detaches
      const detached = await waitForSession(h, 'detached but running', (x) => x.id === s.id && x.live && x.status === 'working' && !x.pids.includes(pane.pid), 30_000);
      assert.equal(detached.canEnd, true, 'a running daemon turn can be interrupted');
      // When the turn ends (≤ 40 s) the unclaimed thread only lingers in the daemon, which no TUI claims: dormant…
      const lingering = await waitForSession(h, 'dormant once the detached turn ends', (x) => x.id === s.id && !x.live, 90_000);
      assert.equal(lingering.status, 'ended');
      // …and the daemon unloads the idle, unsubscribed thread about 60 s later: lock released and deleted.
      const deadline = Date.now() + 120_000;
      while (fs.existsSync(lockFile(h, s.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000));
      assert.equal(fs.existsSync(lockFile(h, s.id)), false, 'the daemon unloaded the thread');
      const gone = (await listSessions(h)).find((x) => x.id === s.id);
      assert.equal(gone?.live, false);
      assert.equal(gone?.status, 'ended');
      assert.ok(gone?.tokens.output, 'the rollout still gives tokens');
    });

    it('an approval wait in a daemon thread is shown as waiting, with the tool', { timeout: SCENARIO_MS }, async () => {
      const pane = await tmux.newPane([cli.bin, '-a', 'on-request', '-s', 'workspace-write'], { cwd: h.cwd, env: h.env });
      started.add(pane.pid);
      const target = path.join(os.tmpdir(), `muster-codex-escalated-${process.pid}.txt`);
      await prompt(pane.id, `TOOLCALL: exec_command {"cmd":"touch ${target}","sandbox_permissions":"require_escalated","justification":"muster approval test"}`);
      const s = await waitForSession(h, 'waiting on approval', (x) => x.live && x.status === 'waiting', 120_000);
      assert.match(s.waitingFor ?? '', /^approval/);
      assert.equal(fs.existsSync(target), false, 'nothing ran before approval');
      await tmux.sendKeys(pane.id, 'Escape');
      await waitForSession(h, 'no longer waiting', (x) => x.id === s.id && x.status !== 'waiting', 60_000);
      process.kill(pane.pid, 'SIGTERM');
    });
  });
});
