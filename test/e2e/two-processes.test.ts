// A Claude session open in two processes at once (`claude --resume` of a live session), through the
// real daemon and the built CLI: one row whose `processes` carry each one's status and pane; focus
// and end take a `--pid` that must be one of them; `end --pid` ends only that process.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { envFor, isAlive, runCli, sleep, startServe, splitBoardUrl, tempHome, until, waitExit } from './kit.ts';
import { userLine, writeRegistry, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const SID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const startTicks = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
};

interface Proc { pid: number; status: string; waitingFor: string | null; pane: { id: string } | null }
interface Session { id: string; live: boolean; status: string; pids: number[]; processes?: Proc[] }

describe('one session, two processes, through the daemon', () => {
  const t = tempHome('muster-e2e-two-procs-');
  const claudeHome = `${t.home}/.claude`;
  const env = envFor(t.home);
  let daemon: ChildProcess;
  const agents: ChildProcess[] = [];
  let base = '';
  let token = '';

  before(async () => {
    // Two real processes named `claude`, both with the session open (the second resumed it while the first ran).
    for (let i = 0; i < 2; i++) agents.push(spawn('bash', ['-c', 'exec -a claude sleep 300'], { stdio: 'ignore' }));
    await sleep(100);
    const [a, b] = agents.map((c) => c.pid as number) as [number, number];
    writeRegistry(claudeHome, { pid: a, sessionId: SID, procStart: startTicks(a), status: 'waiting', waitingFor: 'approve Bash: make', tmux: 'w:@1.%11', startedAt: Date.now() - 60_000, cwd: '/tmp/proj' });
    writeRegistry(claudeHome, { pid: b, sessionId: SID, procStart: startTicks(b), status: 'idle', tmux: 'w:@2.%12', startedAt: Date.now() - 10_000, cwd: '/tmp/proj' });
    writeTranscript(claudeHome, SID, [userLine('twice open', { sessionId: SID, cwd: '/tmp/proj' })], '/tmp/proj');
    const s = await startServe(env);
    daemon = s.child;
    ({ base, token } = splitBoardUrl(s.envelope.boardUrl));
  });
  after(async () => {
    daemon?.kill('SIGTERM');
    if (daemon) await waitExit(daemon).catch(() => daemon.kill('SIGKILL'));
    for (const c of agents) c.kill('SIGKILL');
    t.cleanup();
  });

  const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${base}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>) };
  };
  const session = async (): Promise<Session> => (await api('GET', `/sessions/${SID}`)).json.session as Session;

  it('is one row with both pids, each process with its own status, reason and pane', async () => {
    const [a, b] = agents.map((c) => c.pid as number);
    const s = await session();
    assert.equal(((await api('GET', '/sessions')).json.sessions as Session[]).length, 1, 'one row');
    assert.deepEqual(s.pids, [a, b].sort((x, y) => (x ?? 0) - (y ?? 0)));
    assert.equal(s.status, 'waiting');
    assert.deepEqual(s.processes?.map((p) => [p.pid, p.status, p.waitingFor, p.pane?.id]), [[a, 'waiting', 'approve Bash: make', '%11'], [b, 'idle', null, '%12']]);
  });

  it('a pid that is not one of its processes is 404 process_not_found; a malformed one 400; nothing is signalled', async () => {
    for (const action of ['focus', 'end']) {
      const r = await api('POST', `/${action}`, { sessionId: SID, pid: process.pid });
      assert.equal(r.status, 404);
      assert.equal((r.json.error as { code: string }).code, 'process_not_found');
      for (const bad of ['12', -3, 1.5, 0]) {
        const m = await api('POST', `/${action}`, { sessionId: SID, pid: bad });
        assert.equal(m.status, 400, `${action} ${JSON.stringify(bad)}`);
        assert.equal((m.json.error as { code: string }).code, 'invalid_body');
      }
    }
    const cli = await runCli(['end', SID, '--pid', String(process.pid)], env);
    assert.notEqual(cli.code, 0);
    assert.equal(cli.json.error?.code, 'process_not_found');
    assert.equal((await runCli(['focus', SID, '--pid', 'abc'], env)).code, 2, 'a usage error');
    assert.ok(agents.every((c) => isAlive(c.pid as number)));
  });

  it('muster end --pid ends that process only; the session stays live in the other', async () => {
    const [a, b] = agents.map((c) => c.pid as number) as [number, number];
    const r = await runCli(['end', SID, '--pid', String(a)], env);
    assert.equal(r.code, 0, r.stderr);
    await until('the first agent exited', () => (isAlive(a) ? undefined : true));
    assert.ok(isAlive(b), 'the other process runs on');
    const s = await until('the session lists one process', async () => {
      const x = await session();
      return x.processes?.length === 1 ? x : undefined;
    });
    assert.equal(s.live, true);
    assert.deepEqual(s.processes?.map((p) => p.pid), [b]);
    assert.equal(s.status, 'idle');
  });
});
