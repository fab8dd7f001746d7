// The launcher with a recording pane opener (the PaneOps port), real start files in a temp MUSTER_HOME
// and real git for worktrees; the harness readiness and goals are stand-ins at their ports.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createLauncher, type LauncherOptions } from './index.ts';
import { createWorktrees, type WorktreeRecord } from '../worktrees/index.ts';
import type { PaneOps } from '../hub/index.ts';
import type { Goal } from '../goals/index.ts';
import type { StartSpec } from '../launch/start-spec.ts';
import type { LaunchRecord } from '../launch/types.ts';

const NEW_ID = '33333333-3333-4333-8333-333333333333';
const PI_ID = '44444444-4444-4444-8444-444444444444';
const CLI = ['/usr/bin/node', '/opt/muster/dist/cli.js'];

interface Opened { cwd: string; argv: string[]; label: string }

function rig(root: string, over: Partial<LauncherOptions> & { failOpen?: boolean; noPanes?: boolean } = {}) {
  const opened: Opened[] = [];
  const focused: string[] = [];
  const goals: { set: { sessionId: string; objective: string }[]; cleared: string[] } = { set: [], cleared: [] };
  const panes: PaneOps = {
    peek: () => undefined,
    locate: async () => undefined,
    focus: async (pane) => (focused.push(pane.id), { outcome: 'focused', pane, client: '/dev/pts/1' }),
    opener: async () => ({
      kind: 'tmux',
      open: async (req) => {
        if (over.failOpen) throw new Error('tmux says no');
        opened.push(req);
        return { pane: { manager: 'tmux', id: `%${opened.length}`, socket: '/tmp/s' }, pid: 100 };
      },
    }),
  };
  const records: WorktreeRecord[] = [];
  const launcher = createLauncher({
    env: { PATH: '/usr/bin', TMUX: '/tmp/other,1,0', TMUX_PANE: '%9', MUSTER_LAUNCH_ID: 'lch_0000000000000000000001', ANTHROPIC_API_KEY: 'sk-secret', TERM: 'xterm' },
    musterHome: join(root, 'home'),
    panes: over.noPanes ? null : panes,
    worktrees: createWorktrees({ repo: { put: async (r) => void records.push(r), list: async () => records } }),
    goals: {
      set: async (g) => (goals.set.push({ sessionId: g.sessionId, objective: g.objective }), { id: 'gol_1', sessionId: g.sessionId, objective: g.objective } as Goal),
      clear: async (ref) => (goals.cleared.push(ref), 'gol_1'),
      forSession: async (id) => (goals.set.some((g) => g.sessionId === id) ? ({ id: 'gol_1', sessionId: id } as Goal) : undefined),
    },
    goalReadiness: (h) => (h === 'codex' ? { ok: false, message: 'install the hooks', fix: ['muster hooks install --harness codex'] } : { ok: true }),
    session: () => undefined,
    cliArgv: CLI,
    ops: { readiness: (h) => (h === 'opencode' ? { ok: false, message: 'OpenCode is not installed here', fix: null } : { ok: true }), newId: () => NEW_ID },
    ...over,
  });
  return { launcher, opened, focused, goals };
}

const startFile = (o: Opened): string => (o.argv[1] as string).slice('MUSTER_START_FILE='.length);
const code = (c: string, status?: number) => (e: Error & { code?: string; status?: number }) => e.code === c && (status === undefined || e.status === status);

describe('launcher', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'muster-launcher-')));
  const dir = join(root, 'proj');
  before(() => mkdirSync(dir, { recursive: true }));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('opens `muster <harness> --name NAME` in a new pane; the rest travels in a private start file', async () => {
    const r = rig(root);
    const prompt = '$(touch x) `id`\n"quoted" -- --flag';
    const a = await r.launcher.start({ harness: 'pi', cwd: dir, name: 'demo', prompt });
    assert.equal(r.opened.length, 1);
    const o = r.opened[0]!;
    assert.equal(o.cwd, dir);
    assert.equal(o.label, 'demo');
    assert.deepEqual(o.argv, ['env', `MUSTER_START_FILE=${join(root, 'home', 'launch', a.launchId, 'start.json')}`, ...CLI, 'pi', '--name', 'demo']);
    assert.ok(!o.argv.join(' ').includes('sk-secret'), 'no key on the command line');
    const file = startFile(o);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);
    const spec = JSON.parse(readFileSync(file, 'utf8')) as StartSpec;
    assert.deepEqual([spec.launchId, spec.harness, spec.cwd, spec.args], [a.launchId, 'pi', dir, [prompt]]);
    assert.equal(spec.env.ANTHROPIC_API_KEY, 'sk-secret', "the daemon's environment, keys included, goes in the file");
    assert.equal(spec.env.MUSTER_HOME, join(root, 'home'));
    for (const k of ['TMUX', 'TMUX_PANE', 'MUSTER_LAUNCH_ID', 'TERM']) assert.equal(spec.env[k], undefined, `${k} stays behind`);
    assert.deepEqual({ ...a, launchId: undefined }, {
      outcome: 'started', launchId: undefined, harness: 'pi', sessionId: null, session: null, name: 'demo', cwd: dir,
      pane: { manager: 'tmux', id: '%1', socket: '/tmp/s' }, manager: 'tmux', worktree: null, goal: null, goalPending: false, focus: null,
    });
  });

  it('a harness that takes an id (claude): pre-assigned, the goal set at once, the objective as first prompt', async () => {
    const r = rig(root);
    const a = await r.launcher.start({ harness: 'claude', cwd: dir, goal: { objective: '  make the tests pass  ' }, focus: true });
    assert.equal(a.sessionId, NEW_ID);
    assert.deepEqual(r.goals.set, [{ sessionId: NEW_ID, objective: 'make the tests pass' }]);
    assert.equal(a.goal?.id, 'gol_1');
    assert.equal(a.goalPending, false);
    const spec = JSON.parse(readFileSync(startFile(r.opened[0]!), 'utf8')) as StartSpec;
    assert.deepEqual(spec.args, ['--session-id', NEW_ID, '--', 'make the tests pass']);
    assert.deepEqual([r.focused, a.focus], [['%1'], { outcome: 'focused' }]);
  });

  it('a harness that does not (pi): the goal waits for the launch to be bound, then is set; a waiter hears the id', async () => {
    const r = rig(root);
    const a = await r.launcher.start({ harness: 'pi', cwd: dir, prompt: 'hi', goal: { objective: 'finish', maxTurns: 3 } });
    assert.deepEqual([a.sessionId, a.goal, a.goalPending], [null, null, true]);
    assert.deepEqual(r.goals.set, []);
    const launch = (sessionId: string | null): LaunchRecord => ({ id: a.launchId, harness: 'pi', name: null, pid: 1, startedAt: '', cwd: dir, sessionId, endedAt: null, exitCode: null });
    await r.launcher.bound(launch(null));
    await r.launcher.bound({ ...launch(PI_ID), harness: 'omp' });
    assert.deepEqual(r.goals.set, [], 'not bound yet, nor by another harness');
    await r.launcher.bound(launch(PI_ID));
    assert.deepEqual(r.goals.set, [{ sessionId: PI_ID, objective: 'finish' }]);
    await r.launcher.bound(launch(PI_ID));
    assert.equal(r.goals.set.length, 1, 'once');

    const waiting = r.launcher.start({ harness: 'pi', cwd: dir, goal: { objective: 'again' }, waitSeconds: 20 });
    for (let i = 0; i < 50 && r.opened.length < 2; i++) await new Promise((res) => setImmediate(res));
    const second = JSON.parse(readFileSync(startFile(r.opened[1]!), 'utf8')) as StartSpec;
    await r.launcher.bound({ ...launch(PI_ID), id: second.launchId, sessionId: '55555555-5555-4555-8555-555555555555' });
    const b = await waiting;
    assert.deepEqual([b.sessionId, b.goal?.sessionId, b.goalPending], ['55555555-5555-4555-8555-555555555555', '55555555-5555-4555-8555-555555555555', false]);
  });

  it('a worktree: made beside the repository, the session starts in it; an invalid branch is refused before anything', async () => {
    const repo = join(root, 'repo');
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'i']);
    const r = rig(root);
    const a = await r.launcher.start({ harness: 'pi', cwd: repo, worktree: 'feature/x' });
    assert.equal(a.cwd, join(root, 'repo.worktrees', 'feature%2Fx'));
    assert.equal(r.opened[0]!.cwd, a.cwd);
    assert.equal(r.opened[0]!.label, 'pi feature/x');
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: repo, worktree: 'feature/x' }), code('branch_in_use', 409));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: repo, worktree: '-b' }), code('invalid_branch', 400));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: dir, worktree: 'x' }), code('not_a_repository', 400));
    assert.equal(r.opened.length, 1);
  });

  it('refusals happen before any pane, file or goal', async () => {
    const r = rig(root);
    const before = existsSync(join(root, 'home', 'launch')) ? readdir(join(root, 'home', 'launch')) : [];
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: join(dir, 'missing') }), code('invalid_directory', 400));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: 'proj' }), code('invalid_directory', 400));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: join(dir, '..', 'proj', 'x') }), code('invalid_directory', 400));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: dir, name: 'two\nlines' }), code('invalid_argument', 400));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: dir, name: '--help' }), code('invalid_argument', 400));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: dir, name: 'n'.repeat(81) }), code('invalid_argument', 400));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: dir, prompt: 'a\0b' }), code('invalid_argument', 400));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: dir, prompt: 'p'.repeat(32_001) }), code('payload_too_large', 413));
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: dir, goal: { objective: '   ' } }), code('invalid_argument', 400));
    await assert.rejects(r.launcher.start({ harness: 'opencode', cwd: dir }), code('harness_unavailable', 409));
    await assert.rejects(r.launcher.start({ harness: 'codex', cwd: dir, goal: { objective: 'x' } }), code('goal_not_drivable', 409));
    await assert.rejects(rig(root, { noPanes: true }).launcher.start({ harness: 'pi', cwd: dir, name: 'x y' }), (e: Error & { code?: string; details?: Record<string, unknown> }) =>
      e.code === 'no_pane_manager' && e.details?.command === `cd ${dir} && muster pi --name 'x y'`);
    assert.deepEqual([r.opened.length, r.goals.set.length], [0, 0]);
    assert.deepEqual(existsSync(join(root, 'home', 'launch')) ? readdir(join(root, 'home', 'launch')) : [], before, 'no start file left');
  });

  it('a pane that fails to open takes its start file and its goal back', async () => {
    const home = join(root, 'home-failing');
    const r = rig(root, { failOpen: true, musterHome: home });
    await assert.rejects(r.launcher.start({ harness: 'claude', cwd: dir, goal: { objective: 'x' } }), code('pane_failed', 502));
    assert.deepEqual([r.goals.set.length, r.goals.cleared], [1, [NEW_ID]]);
    await assert.rejects(r.launcher.start({ harness: 'pi', cwd: dir, goal: { objective: 'x' } }), code('pane_failed'));
    assert.deepEqual(readdir(join(home, 'launch')), [], 'no launch directory left');
  });
});

function readdir(p: string): string[] {
  return existsSync(p) ? (execFileSync('ls', ['-A', p], { encoding: 'utf8' }).split('\n').filter(Boolean)) : [];
}
