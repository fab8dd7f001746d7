/**
 * Real-harness tier for `muster new` (issue 21, points 1 and 2): the pinned pi (0.73.1) against the fake
 * model, started by a real daemon (the built CLI) in a private tmux server through the wrapper. One
 * isolated home, daemon and tmux server serve every scenario, each asserting on its own launch and session.
 *
 * - `muster new pi --cwd <repo> --prompt "…"` opens a window in the `muster` session running the wrapper,
 *   whose child is pi; the prompt reaches the model; the session is listed live, in that pane, under its name.
 * - `--worktree feature-x` makes the worktree on branch feature-x beside the repository; the session's cwd and
 *   branch show it. A second `--worktree feature-x` is refused with `branch_in_use`.
 *
 * - `--goal` without `--prompt`: the objective is the first prompt, and the goal (set once the session's first
 *   hook event names it: pi takes no id up front) drives it from that first turn — a second fake model server
 *   answers as the auditor (continue, then done), and the continuation reaches the model.
 *
 * `muster new` passes no model flags, so pi's default provider and model are set in its settings.json.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, lastUserText, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { HarnessDaemon, HarnessEnv, Tmux } from './kit/index.ts';

const SCENARIO_MS = 150_000;

/** argv of a process, from /proc. */
const cmdline = (pid: number): string[] => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
const parentOf = (pid: number): number => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

describe('muster new pi (real pi, fake model, private tmux)', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-new-')));
  let model: FakeModel;
  let auditor: FakeModel;
  let tmux: Tmux;
  let h: HarnessEnv;
  let d: HarnessDaemon;
  let repo: string;

  before(async () => {
    const cli = await ensureHarnessCli('pi');
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    auditor = await startFakeModel();
    tmux = await startTmux(path.join(root, 'tmux'));
    h = harnessEnv('pi', { root, modelUrl: model.url, binDir: cli.binDir, cwd: path.join(root, 'projects', 'app') });
    // What `--provider fakeoai --model fake-model` would say, as pi's own defaults.
    fs.writeFileSync(path.join(h.configDir, 'settings.json'), JSON.stringify({ defaultProvider: 'fakeoai', defaultModel: 'fake-model' }));
    repo = h.cwd;
    const git = { ...h.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
    execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: git });
    execFileSync('git', ['-C', repo, 'commit', '-q', '--allow-empty', '-m', 'first'], { env: git });
    // The daemon's environment is what the new pane's harness runs with: pi's isolated home, offline switches, PATH.
    d = await startHarnessDaemon({ homes: [h], root, env: { ...h.env, MUSTER_TMUX_SOCKET: tmux.socket, MUSTER_AUDITOR_BASE_URL: `${auditor.url}/v1`, MUSTER_AUDITOR_API_KEY: 'sk-audit' } });
  });

  after(async () => {
    await d?.close();
    await tmux?.kill();
    await model?.close();
    await auditor?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function start(args: string[]): Promise<{ launchId: string; pane: { id: string }; cwd: string; worktree: { path: string; branch: string } | null }> {
    const r = await d.muster(['new', 'pi', ...args, '--json']);
    assert.equal(r.code, 0, `${r.stderr}\n${r.stdout}`);
    return r.json as unknown as { launchId: string; pane: { id: string }; cwd: string; worktree: { path: string; branch: string } | null };
  }

  it('muster new pi --cwd <repo> --prompt: a tmux window runs pi through the wrapper; listed live in that pane with its name', { timeout: SCENARIO_MS }, async () => {
    const a = await start(['--cwd', repo, '--name', 'demo', '--prompt', 'hello from muster new']);
    const s = await d.waitFor((x) => x.live && x.title === 'demo' && x.pane?.id === a.pane.id && x.status === 'idle', 90_000, 'new pi session live and idle in its pane');
    assert.equal(s.harness, 'pi');
    assert.equal(s.cwd, repo);
    assert.equal(s.branch, 'main');
    assert.ok(model.requests.some((r) => lastUserText(r).includes('hello from muster new')), 'the first prompt reached the model');
    assert.ok(s.pid, 'the session has a process');
    const wrapper = cmdline(parentOf(s.pid));
    assert.deepEqual(wrapper.slice(-3), ['pi', '--name', 'demo'], `pi's parent is the wrapper: ${wrapper.join(' ')}`);
    const [session, window] = (execFileSync('tmux', ['-S', tmux.socket, 'display-message', '-p', '-t', a.pane.id, '#{session_name}\t#{window_name}'], { encoding: 'utf8' })).trim().split('\t');
    assert.deepEqual([session, window], ['muster', 'demo']);
  });

  it('--worktree feature-x: the session runs in the new worktree on branch feature-x; a second one is refused', { timeout: SCENARIO_MS }, async () => {
    const a = await start(['--cwd', repo, '--worktree', 'feature-x', '--name', 'in-worktree', '--prompt', 'hello from the worktree']);
    const wt = path.join(path.dirname(repo), 'app.worktrees', 'feature-x');
    assert.deepEqual([a.cwd, a.worktree?.path, a.worktree?.branch], [wt, wt, 'feature-x']);
    // The pane map is rebuilt in the background (at most every 2 s): a fast first turn can be idle before
    // the new window is in it, so the pane is waited for too, as for the first session.
    const s = await d.waitFor((x) => x.live && x.title === 'in-worktree' && x.status === 'idle' && x.pane?.id === a.pane.id, 90_000, 'worktree session live and idle in its pane');
    assert.deepEqual([s.cwd, s.branch, s.pane?.id], [wt, 'feature-x', a.pane.id]);
    const again = await d.muster(['new', 'pi', '--cwd', repo, '--worktree', 'feature-x']);
    assert.equal(again.code, 1);
    assert.equal(again.json.error?.code, 'branch_in_use');
    assert.match(again.json.error?.message ?? '', /already checked out in .*app\.worktrees\/feature-x/);
    const listed = await d.muster(['worktrees', '--json']);
    const views = listed.json['worktrees'] as { branch: string; sessions: { id: string }[] }[];
    assert.deepEqual(views.map((v) => [v.branch, v.sessions.map((x) => x.id)]), [['feature-x', [s.id]]]);
  });

  it('--goal without --prompt: the objective opens the session, and the goal drives it from its first turn', { timeout: SCENARIO_MS }, async () => {
    const objective = 'GOAL-21 make the project shippable';
    auditor.enqueue({ text: JSON.stringify({ allDone: false, remaining: ['add the tests NEXT-21'], needsUser: false }) }, { text: JSON.stringify({ allDone: true, remaining: [], needsUser: false }) });
    const mark = model.requests.length;
    const r = await d.muster(['new', 'pi', '--cwd', repo, '--name', 'with-goal', '--goal', objective, '--auditor', 'openai/fake-model', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([r.json['sessionId'], r.json['goalPending']], [null, true], 'pi takes no id up front: the goal waits for it');
    const s = await d.waitFor((x) => x.live && x.title === 'with-goal', 90_000, 'goal session listed');
    const deadline = Date.now() + 90_000;
    let goal: { status: string; turns: number } | undefined;
    while (Date.now() < deadline) {
      const g = await d.muster(['goal', 'show', s.id]);
      goal = g.code === 0 ? (g.json['goal'] as { status: string; turns: number }) : undefined;
      if (goal?.status === 'complete') break;
      await new Promise((res) => setTimeout(res, 250));
    }
    assert.deepEqual([goal?.status, goal?.turns], ['complete', 2], 'audited from the first turn: continue, then done');
    const sent = model.requests.slice(mark).filter((q) => !q.sideCall).map((q) => lastUserText(q));
    assert.ok(sent.some((t) => t.includes(objective)), 'the objective was the first prompt');
    assert.ok(sent.some((t) => t.includes('NEXT-21')), 'the continuation reached the model');
    assert.equal(auditor.pending(), 0);
  });
});
