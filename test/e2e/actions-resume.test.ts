// Resume of dormant Codex, OpenCode, pi and omp sessions through the built CLI and a real daemon
// (issue 6, acceptance "resume … opens a window whose start command is exactly the harness's resume
// argv in the right cwd"). The sessions are hand-written files in a fake HOME, shaped like each
// harness's own (the sources' fixture helpers); the harness commands on PATH are stand-ins that
// record the argv and cwd they were started with. Claude's resume is in actions.test.ts; resuming a
// live session of a real harness is in test/harness/panes.test.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, runCli, startServe, tempHome, until, waitExit } from './kit.ts';
import { execRollout, writeRollout } from '../../src/harnesses/codex/discovery/rollout-fixtures.test-support.ts';
import { assistantMessage, createFixtureStore, userMessage } from '../../src/harnesses/opencode/discovery/fixture-store.test-support.ts';
import { assistant, header, ompExit, ompModelChange, ompTitle, piModelChange, sessionFileName, user, writeSession } from '../../src/harnesses/pi/discovery/fixture-records.test-support.ts';
import { ompSessionDirName, piSessionDirName } from '../../src/harnesses/pi/discovery/index.ts';

const CODEX = '01a22b39-94a8-7390-a4d1-3b90055e3b41';
const OPENCODE = 'ses_0123456789abcdefghijklmnop';
const PI = '019a7f3e-1c2d-7e4f-8a9b-0c1d2e3f4a5b';
const OMP = '019a7f3e-1c2d-7e4f-8a9b-0c1d2e3f4a5c';
const HOUR_AGO = new Date(Date.now() - 3_600_000);
const iso = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();

/** Each harness's own resume command, spelled out rather than asked of the source. */
const EXPECTED: Record<string, { id: string; argv: string[]; dir: string }> = {
  codex: { id: CODEX, argv: ['codex', 'resume', CODEX], dir: 'codex proj' },
  opencode: { id: OPENCODE, argv: ['opencode', '-s', OPENCODE], dir: 'opencode-proj' },
  pi: { id: PI, argv: ['pi', '--session', PI], dir: "pi 'quoted' proj" },
  omp: { id: OMP, argv: ['omp', '--resume', OMP], dir: 'omp-proj' },
};

describe('resume of dormant Codex, OpenCode, pi and omp sessions (real tmux, stand-in harness commands)', () => {
  const t = tempHome('muster-e2e-resume-');
  const bin = join(t.home, 'bin');
  const out = join(t.home, 'started');
  const socket = join(t.home, 'tmux.sock');
  const env = envFor(t.home, { MUSTER_TMUX_SOCKET: socket, PATH: `${bin}:${process.env.PATH}` });
  const tmux = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile('tmux', ['-S', socket, ...args], { timeout: 5000, encoding: 'utf8' }, (e, o, err) => (e ? reject(new Error(err || e.message)) : resolve(o))));
  const cwdOf = (h: string): string => join(t.home, 'projects', EXPECTED[h]!.dir);
  let daemon: ChildProcess;

  before(async () => {
    mkdirSync(bin, { recursive: true });
    mkdirSync(out, { recursive: true });
    for (const h of Object.keys(EXPECTED)) {
      mkdirSync(cwdOf(h), { recursive: true });
      // Records cwd, its own name and every argument (one per line), then stays up like a harness would.
      writeFileSync(join(bin, h), `#!/bin/sh\nprintf '%s\\n' "$(pwd)" "$(basename "$0")" "$@" > "${out}/${h}.txt"\nexec sleep 300\n`);
      chmodSync(join(bin, h), 0o755);
    }
    // Codex: a finished `codex exec` rollout under ~/.codex/sessions.
    const rollout = writeRollout(join(t.home, '.codex'), CODEX, execRollout(CODEX, cwdOf('codex'), 'codex: refactor the parser'));
    utimesSync(rollout, HOUR_AGO, HOUR_AGO);
    // OpenCode: its SQLite store under $XDG_DATA_HOME/opencode (~/.local/share when unset).
    const st = createFixtureStore(join(t.home, '.local', 'share', 'opencode'));
    const created = Date.now() - 3_600_000;
    st.addSession({ id: OPENCODE, directory: cwdOf('opencode'), title: 'opencode: $(touch /tmp/muster-oc) done', createdMs: created });
    st.addMessage(OPENCODE, 'msg_1', created + 1000, userMessage(created + 1000));
    st.addMessage(OPENCODE, 'msg_2', created + 2000, assistantMessage(created + 2000, { completedMs: created + 3000, finish: 'stop' }));
    st.close();
    // pi: ~/.pi/agent/sessions/--<cwd>--/<ts>_<id>.jsonl
    writeSession(join(t.home, '.pi', 'agent', 'sessions', piSessionDirName(cwdOf('pi')), sessionFileName(PI, iso(3_600_000))), [
      header(PI, cwdOf('pi'), iso(3_600_000)), piModelChange('fake-model', iso(3_600_000)), user('pi: write the tests', iso(3_599_000)), assistant({ ts: iso(3_598_000), text: 'done' }),
    ]);
    // omp: ~/.omp/agent/sessions/<dir>/<ts>_<id>.jsonl, ended normally.
    writeSession(join(t.home, '.omp', 'agent', 'sessions', ompSessionDirName(cwdOf('omp')), sessionFileName(OMP, iso(3_600_000))), [
      ompTitle('omp: tidy up', iso(3_600_000)), header(OMP, cwdOf('omp'), iso(3_600_000)), ompModelChange('fakeoai/fake-model', iso(3_600_000)),
      user('omp: tidy up', iso(3_599_000)), assistant({ ts: iso(3_598_000), text: 'ok' }), ompExit(iso(3_597_000)),
    ]);
    const tmuxEnv: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm' };
    delete tmuxEnv.TMUX;
    await new Promise<void>((resolve, reject) =>
      execFile('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'work', 'sleep', '3600'], { env: tmuxEnv }, (e) => (e ? reject(e) : resolve())),
    );
    daemon = (await startServe(env)).child;
  });

  after(async () => {
    await tmux(['kill-server']).catch(() => {});
    daemon?.kill('SIGTERM');
    if (daemon) await waitExit(daemon);
    t.cleanup();
  });

  for (const harness of Object.keys(EXPECTED)) {
    it(`${harness}: dormant; --print answers its resume argv; resume opens a window running exactly that argv in its cwd`, async () => {
      const { id, argv } = EXPECTED[harness]!;
      const cwd = cwdOf(harness);
      const shown = await until(`${harness} session listed`, async () => {
        const r = await runCli(['show', id], env);
        return r.code === 0 ? (r.json.session as { harness: string; live: boolean; cwd: string }) : undefined;
      });
      assert.deepEqual([shown.harness, shown.live, shown.cwd], [harness, false, cwd]);
      const printed = await runCli(['resume', id, '--print'], env);
      assert.deepEqual(printed.json, { ok: true, argv, cwd });
      const r = await runCli(['resume', id], env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.outcome, 'resumed');
      assert.deepEqual(r.json.argv, argv);
      const paneId = (r.json.pane as { id: string }).id;
      const file = join(out, `${harness}.txt`);
      const lines = await until(`${harness} stand-in started`, () => (existsSync(file) && readFileSync(file, 'utf8').endsWith('\n') ? readFileSync(file, 'utf8') : undefined));
      assert.deepEqual(lines.slice(0, -1).split('\n'), [cwd, ...argv]);
      // tmux agrees: the pane is in the `muster` session, started in that directory.
      const [session, path] = (await tmux(['display-message', '-p', '-t', paneId, '#{session_name}\t#{pane_current_path}'])).trim().split('\t');
      assert.deepEqual([session, path], ['muster', cwd]);
    });
  }

  it('a title full of shell metacharacters is only a window label', async () => {
    const names = (await tmux(['list-windows', '-t', '=muster', '-F', '#{window_name}'])).trim().split('\n');
    assert.equal(names.length, 4, names.join(' | '));
    assert.ok(names.some((n) => n.includes('$(touch /tmp/muster-oc)')), names.join(' | '));
    assert.equal(existsSync('/tmp/muster-oc'), false);
  });
});
