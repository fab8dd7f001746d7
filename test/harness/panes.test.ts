/**
 * Real-harness tier for panes and actions (issue 6): the pinned `claude`, `codex --no-daemon` and
 * `omp` each run in an interactive shell in a pane of a private tmux server that a real Muster
 * daemon is pointed at (MUSTER_TMUX_SOCKET), against the fake model. Each is then suspended with
 * Ctrl-Z — all three handle it themselves (raw mode: the tty sends no SIGTSTP) and the shell takes
 * the terminal back — so the agent is in the background of its shell, no longer in the pane's
 * foreground process group. It must still be mapped to that pane, focus must switch an attached
 * client to it, and resume must focus it rather than start it twice.
 * Then `codex exec` with a slow reply is ended through `muster end` (the actions path): SIGINT,
 * and its rollout records the abort.
 *
 * The daemon is the harness kit's (the built CLI: `npm run build` first), pointed at this file's tmux
 * server through MUSTER_TMUX_SOCKET.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, lastUserText, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, findFiles, harnessEnv, readJsonl, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { HarnessCli, HarnessDaemon, HarnessEnv, Pane, Tmux } from './kit/index.ts';
import type { Session } from '../../src/core/session.ts';
import { until } from '../e2e/kit.ts';

const SCENARIO_MS = 240_000;
type Name = 'claude' | 'codex' | 'omp';

/** state, process group and the tty's foreground group of `pid`, from /proc; null once it is gone. */
function stat(pid: number): { state: string; pgrp: number; tpgid: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: f[0] ?? '', pgrp: Number(f[2]), tpgid: Number(f[5]) };
  } catch {
    return null;
  }
}
const childrenOf = (pid: number): number[] => {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

describe('panes and actions with the real claude, codex and omp (private tmux, real daemon)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-panes-'));
  let model: FakeModel;
  let tmux: Tmux;
  let daemon: HarnessDaemon | undefined;
  let client: ChildProcess | undefined;
  const runCli = (args: string[]) => daemon!.muster(args);
  const clis = {} as Record<Name, HarnessCli>;
  const homes = {} as Record<Name, HarnessEnv>;
  /** Agent and exec pids this file started outside the tmux panes' shells: killed by pid at the end. */
  const started = new Set<number>();
  const execs: ChildProcess[] = [];

  const tmuxRun = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile('tmux', ['-S', tmux.socket, ...args], { timeout: 10_000, encoding: 'utf8' }, (e, o, err) => (e ? reject(new Error(err || e.message)) : resolve(o))));
  const shownPane = async (): Promise<string> => (await tmuxRun(['list-clients', '-F', '#{pane_id}'])).trim();

  async function listSessions(): Promise<Session[]> {
    const r = await runCli(['ls', '--json']);
    if (r.code !== 0) throw new Error(`muster ls --json: ${r.stderr}`);
    return r.json['sessions'] as Session[];
  }
  const waitSession = (what: string, pred: (s: Session) => boolean, ms = 90_000): Promise<Session> =>
    until(what, async () => (await listSessions()).find(pred), ms, { stepMs: 200, detail: async () => JSON.stringify(await listSessions(), null, 1) });

  before(async () => {
    for (const name of ['claude', 'codex', 'omp'] as const) clis[name] = await ensureHarnessCli(name);
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    tmux = await startTmux(path.join(root, 'tmux'));
    // One HOME for the three, each in its own project directory, so one daemon reads them all.
    for (const name of ['claude', 'codex', 'omp'] as const) {
      homes[name] = harnessEnv(name, { root, modelUrl: model.url, binDir: clis[name].binDir, cwd: path.join(root, `proj-${name}`) });
    }
    daemon = await startHarnessDaemon({ homes: Object.values(homes), root, env: { MUSTER_TMUX_SOCKET: tmux.socket } });
    // The operator's terminal: a real tmux client on a pty (script(1)), showing the kit's idle window.
    client = spawn('script', ['-qfc', `tmux -S ${tmux.socket} attach -t =muster`, '/dev/null'], { stdio: 'ignore', env: { PATH: process.env.PATH, TERM: 'xterm' } });
    await until('a tmux client attached', async () => ((await tmuxRun(['list-clients', '-F', '#{client_name}'])).trim() ? true : undefined), 20_000);
  });

  after(async () => {
    client?.kill('SIGKILL');
    for (const c of execs) if (c.exitCode === null && c.signalCode === null) { try { process.kill(-(c.pid as number), 'SIGKILL'); } catch {} }
    for (const pid of started) { try { process.kill(pid, 'SIGKILL'); } catch {} }
    await tmux?.kill();
    await daemon?.close();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const START: Record<Name, { argv: (h: HarnessEnv) => string[]; ready: RegExp }> = {
    claude: { argv: () => [clis.claude.bin, '--permission-mode', 'manual'], ready: /❯/ },
    codex: { argv: () => [clis.codex.bin, '--no-daemon'], ready: /Ask Codex to do anything|›/ },
    omp: { argv: (h) => [clis.omp.bin, ...h.argvPrefix, '--no-title'], ready: /Fake OpenAI/ },
  };

  /** Types `text` and presses Enter until the fake model has seen it (a TUI still starting drops keys). */
  async function prompt(pane: Pane, text: string): Promise<void> {
    await tmux.sendKeys(pane.id, text, { literal: true });
    for (let attempt = 0; attempt < 4; attempt++) {
      await new Promise((r) => setTimeout(r, 700));
      await tmux.sendKeys(pane.id, 'Enter');
      try {
        await model.waitForRequest((req) => lastUserText(req).includes(text), 15_000);
        return;
      } catch { /* not submitted yet */ }
    }
    throw new Error(`prompt not submitted: ${text}\n${await tmux.capture(pane.id)}`);
  }

  for (const name of ['claude', 'codex', 'omp'] as const) {
    it(`${name}: suspended with Ctrl-Z in its shell, still mapped to its pane; focus switches the client there; resume focuses it`, { timeout: SCENARIO_MS }, async () => {
      const h = homes[name];
      // An interactive shell in the pane, the agent started from it as a job (as a person does).
      const pane = await tmux.newPane(['bash', '--norc', '--noprofile', '-i'], { cwd: h.cwd, env: { ...h.env, PS1: 'SHELL$ ' } });
      await tmux.waitForText(pane.id, /SHELL\$/, 20_000);
      await tmux.sendKeys(pane.id, START[name].argv(h).join(' '), { literal: true });
      await tmux.sendKeys(pane.id, 'Enter');
      const agent = await until(`${name} started from the shell`, () => childrenOf(pane.pid)[0], 30_000);
      started.add(agent);
      await tmux.waitForText(pane.id, START[name].ready, 120_000);
      await new Promise((r) => setTimeout(r, 1000));
      await prompt(pane, `hello from ${name} in a pane`);
      const session = await waitSession(`${name} session live after a turn`, (s) => s.harness === name && s.live && s.cwd === h.cwd && s.tokens.output > 0);
      for (const pid of session.pids) started.add(pid);

      await tmux.sendKeys(pane.id, 'C-z');
      await until(`${name} stopped and the shell in the foreground`, () => (stat(agent)?.state === 'T' && stat(pane.pid)?.tpgid === pane.pid ? true : undefined), 20_000, { stepMs: 200, detail: () => tmux.capture(pane.id) });
      assert.notEqual(stat(agent)?.pgrp, stat(pane.pid)?.tpgid, 'the agent is not in the foreground group');

      const mapped = await waitSession(`${name} mapped to its pane while suspended`, (s) => s.id === session.id && s.pane?.id === pane.id, 30_000);
      assert.equal(mapped.live, true);
      assert.deepEqual([mapped.pane?.manager, mapped.pane?.socket], ['tmux', tmux.socket]);

      await tmuxRun(['select-window', '-t', '=muster:idle']);
      assert.notEqual(await shownPane(), pane.id);
      const focused = await runCli(['focus', session.id]);
      assert.equal(focused.code, 0, focused.stderr);
      assert.equal((focused.json.pane as { id: string }).id, pane.id);
      assert.equal(await shownPane(), pane.id, 'the attached client shows the agent pane');

      await tmuxRun(['select-window', '-t', '=muster:idle']);
      const resumed = await runCli(['resume', session.id]);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.deepEqual(resumed.json.outcome, 'already_live');
      assert.deepEqual((resumed.json.focus as { outcome: string; pane: { id: string } }).outcome, 'focused');
      assert.equal(await shownPane(), pane.id, 'resume of a live session focused it');
      const windows = (await tmuxRun(['list-windows', '-a', '-F', '#{pane_start_command}'])).split('\n');
      assert.ok(!windows.some((w) => w.includes('--resume') || w.includes(' resume ')), `nothing was started twice: ${windows.join(' | ')}`);
    });
  }

  it('codex exec ended through `muster end`: SIGINT, the rollout records the abort, the session ends', { timeout: SCENARIO_MS }, async () => {
    const h = homes.codex;
    const c = spawn(clis.codex.bin, ['exec', '--skip-git-repo-check', 'SLOW60 exec turn to end from muster'], { cwd: h.cwd, env: h.env, stdio: 'ignore', detached: true });
    execs.push(c);
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    const live = await waitSession('codex exec live and working', (s) => s.harness === 'codex' && s.live && s.status === 'working' && s.title.includes('exec turn to end'));
    assert.equal(live.canEnd, true, 'a verified codex exec holder may be ended');
    const r = await runCli(['end', live.id]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json, { ok: true, ended: true, id: live.id });
    await Promise.race([exited, new Promise((_, reject) => setTimeout(() => reject(new Error('codex exec did not exit within 30 s of SIGINT')), 30_000))]);
    const ended = await waitSession('codex exec not live after end', (s) => s.id === live.id && !s.live, 30_000);
    assert.equal(ended.status, 'ended');
    const [rollout] = findFiles(path.join(h.configDir, 'sessions'), new RegExp(`${live.id}\\.jsonl$`));
    assert.ok(rollout, 'the rollout file exists');
    const aborted = readJsonl(rollout).filter((l) => l['type'] === 'event_msg' && (l['payload'] as { type?: string }).type === 'turn_aborted');
    assert.equal(aborted.length, 1, 'one turn_aborted record');
    assert.equal((aborted[0]?.['payload'] as { reason?: string }).reason, 'interrupted');
    // The action log names the signal and who asked.
    const res = await fetch(`${daemon!.api.base}/api/actions?sessionId=${live.id}`, { headers: { authorization: `Bearer ${daemon!.api.token}` } });
    const log = ((await res.json()) as { actions: { actor: string; action: string; outcome: string; detail: { signal?: string } }[] }).actions;
    assert.ok(log.some((a) => a.actor === 'cli' && a.action === 'end' && a.outcome === 'ended' && a.detail.signal === 'SIGINT'), JSON.stringify(log));
  });
});
