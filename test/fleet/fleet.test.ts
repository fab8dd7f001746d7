// The fleet against a real PostgreSQL (issue 19): three daemons with their own homes and host names
// (A, B, C) joined to one throwaway cluster stand for three machines. Seeing (ls, SSE), paging across
// hosts through the official MCP SDK, steering through the command table (answers, a conflict, end,
// a hostile id, read-only hosts, focus), security (no secret or transcript text in PostgreSQL, the URL
// never printed or logged), an outage of the database, and a host killed and back.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { isAlive, sleep, until, waitExit } from '../e2e/kit.ts';
import { callTool, connectMcp } from '../e2e/pager-kit.ts';
import { spawnFakeClaude, writeClaudeSession } from '../browser/browser-kit.ts';
import { assistantLine, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { pgMissing, startCluster, type PgCluster } from './pg-cluster.ts';
import { startHost, type Host } from './fleet-kit.ts';

interface S { id: string; host?: string; hostId?: string; hostReachable?: boolean; readOnly?: boolean; live: boolean; title: string; status: string }
interface P { id: string; status: string; host?: string; question: string; answer: { text: string } | null }

const LIVE_A = 'a1a1a1a1-0000-4000-8000-000000000001';
const DECOY_A = 'a1a1a1a1-0000-4000-8000-000000000002';
const DORMANT_C = 'c3c3c3c3-0000-4000-8000-000000000003';
const SECRET_A = 'a1a1a1a1-0000-4000-8000-000000000004';
const GOAL_A = 'a1a1a1a1-0000-4000-8000-000000000005';
const TRANSCRIPT_MARKER = 'TRANSCRIPT-ONLY-0c9e1f';

const skip = pgMissing();

describe('fleet: three hosts on one PostgreSQL', { skip: skip ?? false }, () => {
  let pg: PgCluster;
  let A: Host;
  let B: Host;
  let C: Host;
  const procs: ChildProcess[] = [];

  const ls = async (h: Host, args: string[] = []): Promise<S[]> => {
    const r = await h.cli(['ls', '--json', ...args]);
    assert.equal(r.code, 0, r.stderr);
    return r.json.sessions as S[];
  };
  const fleetStatus = async (h: Host) => (await h.api('GET', '/fleet')).json.fleet as { connected: boolean; outbox: { queued: number; lastSeq: number }; hosts: { name: string; reachable: boolean }[] };

  before(async () => {
    pg = await startCluster();
    // No host may find a tmux server of the machine's own (a resume would open a window there).
    const env = { TMUX_TMPDIR: mkdtempSync(join(tmpdir(), 'muster-fleet-tmux-')) };
    A = await startHost('A', { join: pg.url, env });
    B = await startHost('B', { join: pg.url, env });
    C = await startHost('C', { join: pg.url, settings: { fleetAcceptCommands: false }, env });
    writeClaudeSession(C.claudeHome, { id: DORMANT_C, cwd: C.home, title: 'a dormant session on C' });
  });
  after(async () => {
    for (const p of procs) p.kill('SIGKILL');
    for (const h of [A, B, C]) await h?.stop().catch(() => {});
    pg?.destroy();
    for (const h of [A, B, C]) h?.cleanup();
  });

  it('joining: the URL is kept 0600, shown redacted, never logged; the host has a stable id', async () => {
    const st = await A.cli(['fleet', 'status']);
    assert.equal(st.code, 0, st.stderr);
    const fleet = st.json.fleet as { url: string; host: { id: string; name: string }; connected: boolean; source: string };
    assert.equal(fleet.host.name, 'A');
    assert.match(fleet.host.id, /^hst_[a-z0-9]{26}$/);
    assert.equal(fleet.source, 'file');
    assert.ok(!fleet.url.includes(pg.password) && fleet.url.includes('***'), fleet.url);
    assert.equal(statSync(join(A.home, 'fleet.json')).mode & 0o777, 0o600);
    assert.equal(statSync(join(A.home, 'host-id')).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(A.home, 'host-id'), 'utf8').trim(), fleet.host.id);
    // A bad URL is refused before anything is saved; an unreachable one too, with the password scrubbed.
    const bad = await B.cli(['fleet', 'join', 'mysql://x@y/z']);
    assert.equal(bad.json.error?.code, 'fleet_url_invalid');
    const away = await B.cli(['fleet', 'join', `postgres://muster:${pg.password}@127.0.0.1:1/muster`, '--name', 'B'], { timeoutMs: 30_000 });
    assert.equal(away.json.error?.code, 'fleet_unreachable');
    assert.ok(!away.stderr.includes(pg.password));
    await until('B back in its fleet (a failed join changes nothing)', async () => ((await fleetStatus(B)).connected ? true : undefined), 15_000);
  });

  it('a session appearing on A is listed on B with host "A" and arrives over B\'s SSE', async () => {
    const sse = await B.sse();
    const claude = spawnFakeClaude();
    procs.push(claude);
    await sleep(100);
    writeClaudeSession(A.claudeHome, { id: LIVE_A, cwd: A.home, title: 'live on A', pid: claude.pid, status: 'busy' });
    const ev = await sse.next('session.upserted', (d) => (d.session as S).id === LIVE_A, 15_000);
    assert.equal((ev.data.session as S).host, 'A');
    sse.close();
    const seen = (await ls(B)).find((s) => s.id === LIVE_A);
    assert.ok(seen, 'listed on B');
    assert.equal(seen.host, 'A');
    assert.equal(seen.live, true);
    assert.equal(seen.hostReachable, true);
    const onlyA = await ls(B, ['--host', 'A']);
    assert.ok(onlyA.length > 0 && onlyA.every((s) => s.host === 'A'));
    assert.ok((await ls(A)).find((s) => s.id === LIVE_A)?.host === 'A', 'a joined host names itself');
    const cs = await until('C\'s dormant session on B, read-only', async () => (await ls(B)).find((s) => s.id === DORMANT_C));
    assert.equal(cs.readOnly, true);
  });

  it('a page asked on A (MCP) is answered with `muster answer` on C; the waiting call on A returns it', async () => {
    await A.api('POST', '/settings', { askWaitSeconds: 60 });
    const client = await connectMcp({ mcpUrl: `${A.base}/mcp`, token: A.token });
    try {
      const asking = callTool(client, 'ask_operator', { question: 'Deploy to staging?', choices: ['yes', 'no'] }, { timeout: 90_000, resetTimeoutOnProgress: true });
      const page = await until('the page on C', async () => {
        const r = await C.cli(['pages', '--pending']);
        return (r.json.pages as P[]).find((p) => p.question === 'Deploy to staging?');
      }, 15_000);
      assert.equal(page.host, 'A');
      const ans = await C.cli(['answer', page.id, 'yes, go']);
      assert.equal(ans.code, 0, ans.stderr);
      assert.equal((ans.json.page as P).status, 'answered');
      const out = await asking;
      assert.equal(out.status, 'answered');
      assert.equal(out.answer, 'yes, go');
    } finally {
      await client.close();
    }
  });

  it('two answers to one page at once: one wins, the other is a clear conflict', async () => {
    const asked = await A.api('POST', '/pages/ask', { question: 'Which region?' });
    const id = (asked.json.page as P).id;
    await until('the page on B and C', async () => ((await B.api('GET', `/pages/${id}`)).status === 200 && (await C.api('GET', `/pages/${id}`)).status === 200 ? true : undefined), 15_000);
    const [b, c] = await Promise.all([B.cli(['answer', id, 'eu-west']), C.cli(['answer', id, 'us-east'])]);
    const codes = [b.code, c.code].sort();
    assert.deepEqual(codes, [0, 1], `${b.stderr} ${c.stderr}`);
    const loser = b.code === 0 ? c : b;
    assert.equal(loser.json.error?.code, 'page_already_answered');
    assert.match(loser.json.error?.message ?? '', /host "A"/);
    const winner = b.code === 0 ? 'eu-west' : 'us-east';
    assert.equal(((await A.api('GET', `/pages/${id}`)).json.page as P).answer?.text, winner);
  });

  it('`muster end` on B ends exactly that process on A; focus names the host; a read-only host refuses', async () => {
    const decoy = spawnFakeClaude();
    procs.push(decoy);
    await sleep(100);
    writeClaudeSession(A.claudeHome, { id: DECOY_A, cwd: A.home, title: 'decoy on A', pid: decoy.pid, status: 'idle' });
    const target = procs[0] as ChildProcess;
    await until('A\'s sessions live on B', async () => {
      const all = await ls(B);
      return all.find((s) => s.id === LIVE_A)?.live && all.find((s) => s.id === DECOY_A)?.live ? true : undefined;
    }, 15_000);
    const focus = await B.cli(['focus', LIVE_A]);
    assert.equal(focus.json.error?.code, 'remote_session');
    assert.match(focus.json.error?.message ?? '', /host "A".*muster focus/);
    const end = await B.cli(['end', LIVE_A]);
    assert.equal(end.code, 0, end.stderr);
    await waitExit(target, 10_000);
    assert.ok(decoy.pid && isAlive(decoy.pid), 'the other session\'s process is untouched');
    const actions = (await A.api('GET', `/actions?sessionId=${LIVE_A}`)).json.actions as { actor: string; outcome: string }[];
    assert.equal(actions[0]?.actor, 'fleet');
    assert.equal(actions[0]?.outcome, 'ended');
    const ro = await B.cli(['resume', DORMANT_C, '--print']);
    assert.equal(ro.json.error?.code, 'host_read_only');
  });

  it('a hostile command in the table is refused by its owner, and nothing outside the list of commands runs', async () => {
    const hostId = (await fleetStatus(A) as unknown as { host: { id: string } }).host.id;
    const rows = await pg.sql<{ id: string }>(
      `INSERT INTO muster.commands (target_host, from_host, kind, args, deadline) VALUES
        ($1, 'hst_attacker00000000000000000', 'session.end', '{"sessionId":"../../../etc/passwd; kill -9 1"}', now() + interval '1 minute'),
        ($1, 'hst_attacker00000000000000000', 'settings.update', '{"fleetAcceptCommands":true}', now() + interval '1 minute'),
        ($1, 'hst_attacker00000000000000000', 'page.answer', '{"pageId":"../settings","text":"x"}', now() + interval '1 minute')
       RETURNING id`, [hostId]);
    await pg.sql(`SELECT pg_notify('muster_to_' || $1, '{"cmd":0}')`, [hostId]);
    const done = await until('A answered them', async () => {
      const r = await pg.sql<{ id: string; status: string; result: { body: { error: { code: string } } } }>('SELECT id, status, result FROM muster.commands WHERE id = ANY($1) ORDER BY id', [rows.map((r) => r.id)]);
      return r.every((x) => x.status !== 'queued' && x.status !== 'claimed') ? r : undefined;
    }, 10_000);
    assert.deepEqual(done.map((r) => [r.status, r.result.body.error.code]), [['failed', 'invalid_id'], ['failed', 'fleet_command_refused'], ['failed', 'invalid_id']]);
    assert.ok(decoyAlive());
  });
  it('resume and goals across hosts: resumed (print), and a goal set, paused, resumed and cleared on B for a session of A; A\'s refusal comes back as it is', async () => {
    writeClaudeSession(A.claudeHome, { id: GOAL_A, cwd: A.home, title: 'a dormant session on A for a goal' });
    await until('the session on B', async () => (await ls(B)).find((s) => s.id === GOAL_A), 15_000);
    // Resuming it from B is A's doing: A's own resume command, in A's directory.
    const resumed = await B.cli(['resume', GOAL_A, '--print']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.json.cwd, A.home);
    assert.ok((resumed.json.argv as string[]).includes(GOAL_A), JSON.stringify(resumed.json.argv));
    const set = await B.cli(['goal', 'set', GOAL_A, 'ship the release notes', '--max-turns', '3']);
    assert.equal(set.code, 0, set.stderr);
    const onA = async () => (await A.api('GET', `/goals/${GOAL_A}`)).json.goal as { status: string; objective: string; maxTurns: number };
    assert.deepEqual([(await onA()).objective, (await onA()).maxTurns], ['ship the release notes', 3], 'the goal is A\'s');
    const shown = await until('the goal on B', async () => {
      const g = (await B.api('GET', `/goals/${GOAL_A}`)).json.goal as { host?: string } | undefined;
      return g?.host === 'A' ? g : undefined;
    }, 15_000);
    assert.equal(shown.host, 'A');
    assert.equal((await B.cli(['goal', 'pause', GOAL_A])).code, 0);
    assert.equal((await onA()).status, 'paused');
    assert.equal((await B.cli(['goal', 'resume', GOAL_A])).code, 0);
    assert.equal((await onA()).status, 'active');
    const cleared = await B.cli(['goal', 'clear', GOAL_A]);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.equal((await A.api('GET', `/goals/${GOAL_A}`)).status, 404);
    // A prompt from B is A's send: the dormant session would be resumed there with it; A has no pane
    // manager, so its refusal (with A's own command to run by hand) comes back naming A.
    const sent = await B.cli(['send', GOAL_A, 'hello from B']);
    assert.equal(sent.json.error?.code, 'no_pane_manager', JSON.stringify(sent.json));
    assert.match(sent.json.error?.message ?? '', /^host "A": .*claude --resume a1a1a1a1-0000-4000-8000-000000000005 -- 'hello from B'/);
    const logged = (await A.api('GET', `/actions?sessionId=${GOAL_A}`)).json.actions as { actor: string; action: string }[];
    assert.deepEqual([logged[0]?.actor, logged[0]?.action], ['fleet', 'send']);
    // A text refused by the rules never crosses the database; a read-only host refuses a prompt too.
    const before = (await pg.sql<{ n: string }>('SELECT count(*) AS n FROM muster.commands'))[0]?.n;
    assert.equal((await B.api('POST', `/sessions/claude/${GOAL_A}/send`, { text: 'bell\u0007' })).status, 400);
    assert.equal((await pg.sql<{ n: string }>('SELECT count(*) AS n FROM muster.commands'))[0]?.n, before);
    assert.equal((await B.cli(['send', DORMANT_C, 'hi'])).json.error?.code, 'host_read_only');
    // A live session nothing reports the turns of: A refuses, and says why, through B.
    const refused = await B.cli(['goal', 'set', DECOY_A, 'never driven']);
    assert.equal(refused.json.error?.code, 'goal_not_drivable');
    assert.match(refused.json.error?.message ?? '', /^host "A": /);
  });
  const decoyAlive = () => procs[1]?.pid !== undefined && isAlive(procs[1].pid as number);

  it('nothing secret and no transcript text is in PostgreSQL; the URL never reaches a log', async () => {
    writeTranscript(A.claudeHome, SECRET_A, [userLine('a title anyone may see', { sessionId: SECRET_A, cwd: '/tmp/s' }), assistantLine({ id: 'msg_s', sessionId: SECRET_A, cwd: '/tmp/s' }).replace('hi from fake model', TRANSCRIPT_MARKER)], '/tmp/s');
    await until('the session on B', async () => (await ls(B)).find((s) => s.id === SECRET_A), 15_000);
    const dump = (await pg.sql<{ t: string }>(
      "SELECT coalesce((SELECT string_agg(t::text, '\n') FROM muster.records t), '') || coalesce((SELECT string_agg(t::text, '\n') FROM muster.changes t), '') || coalesce((SELECT string_agg(t::text, '\n') FROM muster.commands t), '') || coalesce((SELECT string_agg(t::text, '\n') FROM muster.hosts t), '') AS t",
    ))[0]?.t ?? '';
    assert.ok(dump.includes('a title anyone may see'), 'the summary is there');
    assert.ok(!dump.includes(TRANSCRIPT_MARKER), 'no transcript text');
    for (const h of [A, B, C]) {
      assert.ok(!dump.includes(h.token), `no token of ${h.name}`);
      assert.ok(!h.output().includes(pg.password), `${h.name}'s output holds no password`);
      const log = join(h.home, 'logs', 'daemon.log');
      assert.ok(!(statSafe(log) && readFileSync(log, 'utf8').includes(pg.password)));
    }
  });

  it('PostgreSQL stopped for 20 s while A keeps changing: afterwards every change is there once, in order, and B shows it', async () => {
    const before = (await fleetStatus(A)).outbox.lastSeq;
    pg.stop();
    const t0 = Date.now();
    const newIds: string[] = [];
    const pageIds: string[] = [];
    let i = 0;
    while (Date.now() - t0 < 20_000) {
      const id = `0ff11e00-0000-4000-8000-${String(++i).padStart(12, '0')}`;
      newIds.push(id);
      writeClaudeSession(A.claudeHome, { id, cwd: A.home, title: `made offline ${i}` });
      const asked = await A.api('POST', '/pages/ask', { question: `offline question ${i}` });
      assert.equal(asked.status, 200, 'A keeps working without the database');
      const pid = (asked.json.page as P).id;
      pageIds.push(pid);
      assert.equal((await A.api('POST', `/pages/${pid}/answer`, { text: `answer ${i}` })).status, 200);
      await sleep(1500);
    }
    assert.ok((await fleetStatus(A)).outbox.queued > 0, 'changes wait in the outbox');
    pg.start();
    await until('A\'s outbox drained', async () => ((await fleetStatus(A)).outbox.queued === 0 ? true : undefined), 30_000);
    const hostId = ((await fleetStatus(A)) as unknown as { host: { id: string } }).host.id;
    const changes = await pg.sql<{ seq: string; kind: string; key: string; data: { status?: string } | null }>('SELECT seq, kind, key, data FROM muster.changes WHERE host_id = $1 AND seq > $2 ORDER BY seq', [hostId, before]);
    const seqs = changes.map((c) => Number(c.seq));
    const last = (await fleetStatus(A)).outbox.lastSeq;
    assert.deepEqual(seqs, Array.from({ length: last - before }, (_, k) => before + 1 + k), 'every change once, none missing, in order');
    for (const id of newIds) assert.ok(changes.some((c) => c.kind === 'session' && c.key === `claude:${id}`), `session ${id} published`);
    for (const id of pageIds) {
      const statuses = changes.filter((c) => c.kind === 'page' && c.key === id).map((c) => c.data?.status);
      assert.deepEqual(statuses.slice(0, 2), ['pending', 'answered'], `page ${id}: asked then answered, in that order`);
    }
    await until('B shows them', async () => {
      const all = await ls(B);
      const pages = (await B.cli(['pages', '--host', 'A', '--limit', '1000'])).json.pages as P[];
      return newIds.every((id) => all.some((s) => s.id === id && s.host === 'A')) && pageIds.every((id) => pages.some((p) => p.id === id && (p.status === 'answered' || p.status === 'delivered'))) ? true : undefined;
    }, 30_000);
  });

  it('kill -9 of A: B marks A unreachable within 35 s and keeps its rows; A back: live again', async () => {
    const killedAt = Date.now();
    await A.kill();
    await until('A unreachable on B', async () => {
      const mine = (await ls(B)).filter((s) => s.host === 'A');
      return mine.length > 0 && mine.every((s) => s.hostReachable === false) ? true : undefined;
    }, 40_000, { stepMs: 250 });
    const took = Date.now() - killedAt;
    assert.ok(took <= 35_000, `unreachable after ${took} ms`);
    assert.ok((await ls(B)).some((s) => s.id === DECOY_A), 'its rows are kept');
    assert.equal((await fleetStatus(B)).hosts.find((h) => h.name === 'A')?.reachable, false);
    const steer = await B.cli(['end', DECOY_A]);
    assert.equal(steer.json.error?.code, 'host_unreachable');
    await A.restart();
    await until('A reachable again on B', async () => {
      const mine = (await ls(B)).filter((s) => s.host === 'A');
      return mine.length > 0 && mine.every((s) => s.hostReachable === true) ? true : undefined;
    }, 30_000);
  });

  it('leaving removes the host from the fleet; the others stop listing it', async () => {
    const r = await C.cli(['fleet', 'leave']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.removedFromDatabase, true);
    await until('C gone from B', async () => ((await ls(B)).some((s) => s.host === 'C') ? undefined : true), 15_000);
    const st = await C.cli(['fleet', 'status']);
    assert.equal((st.json.fleet as { joined: boolean }).joined, false);
    assert.equal((await ls(C)).find((s) => s.id === DORMANT_C)?.host, undefined, 'a host outside any fleet lists as before');
  });
});

function statSafe(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}
