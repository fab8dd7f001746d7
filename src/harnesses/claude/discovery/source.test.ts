import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import type { FakeProc } from '../../../../test/fakes/fake-proc.ts';
import type { SourceChange } from '../../../discovery/contract.ts';
import { isMusterError } from '../../../errors/index.ts';
import { createClaudeSource } from './source.ts';
import { assistantLine, claudeProc, metaLine, SID, SID2, tempHome, userLine, writeRegistry, writeTranscript } from './claude-fixtures.test-support.ts';

const SID3 = '682ae5a7-f5b4-413d-add4-f68eb2ad632e';

describe('claude source', () => {
  const homes: string[] = [];
  after(() => { for (const h of homes) fs.rmSync(h, { recursive: true, force: true }); });
  const setup = (gitBranch = 'develop'): { home: string; proc: FakeProc; source: ReturnType<typeof createClaudeSource> } => {
    const home = tempHome();
    homes.push(home);
    const proc = createFakeProc();
    const git = { read: (cwd: string) => ({ repoRoot: cwd.startsWith('/home/dev/project') ? '/home/dev/project' : null, branch: gitBranch }) };
    return { home, proc, source: createClaudeSource({ home, proc, git, tornRetryMs: 5, debounceMs: 20 }) };
  };

  it('a dormant session: details from its transcript, ended, resumable, not endable', async () => {
    const { home, source } = setup();
    writeTranscript(home, SID, [
      metaLine('custom-title', { customTitle: 'hooks-demo' }),
      userLine('say hi', { ts: '2026-11-30T06:51:53.460Z', branch: 'feature/x' }),
      assistantLine({ id: 'm1', input: 2687, output: 7, ts: '2026-11-30T06:51:53.766Z', branch: 'feature/x' }),
      metaLine('cost-state', { totalCostUSD: 0.010888, startTime: 1796021512537 }),
    ]);
    const [s, ...rest] = await source.list();
    assert.equal(rest.length, 0);
    assert.ok(s);
    assert.equal(s.id, SID);
    assert.equal(s.title, 'hooks-demo');
    assert.equal(s.live, false);
    assert.equal(s.status, 'ended');
    assert.equal(s.canEnd, false);
    assert.equal(s.pid, null);
    assert.deepEqual(s.pids, []);
    assert.equal(s.cwd, '/home/dev/project');
    assert.equal(s.repoRoot, '/home/dev/project');
    assert.equal(s.branch, 'feature/x', 'a dormant session keeps its branch');
    assert.equal(s.model, 'claude-sonnet-4-5-20250929');
    assert.deepEqual(s.tokens, { input: 2687, output: 7, cacheRead: 0, cacheWrite: 0 });
    assert.equal(s.costUsd, 0.010888);
    assert.equal(s.startedAt, '2026-11-30T06:51:53.460Z');
    assert.equal(s.cacheExpiresAt, '2026-11-30T06:56:53.766Z');
    assert.deepEqual(s.resumeArgv, ['claude', '--resume', SID]);
    assert.equal(s.pane, null);
  });

  it('last activity is the last record\'s time, not the file\'s mtime (a copied ~/.claude) (issue 13, point 14)', async () => {
    const { home, source } = setup();
    const file = writeTranscript(home, SID, [userLine('old work', { ts: '2026-01-02T03:04:05.000Z' })]);
    const untimed = writeTranscript(home, SID2, [metaLine('custom-title', { customTitle: 'no times' }, SID2)]);
    const copiedAt = new Date();
    for (const f of [file, untimed]) fs.utimesSync(f, copiedAt, copiedAt);
    const list = await source.list();
    assert.equal(list.find((s) => s.id === SID)?.lastActivityAt, '2026-01-02T03:04:05.000Z');
    assert.equal(list.find((s) => s.id === SID2)?.lastActivityAt, new Date(fs.statSync(untimed).mtimeMs).toISOString(), 'mtime only without timestamps');
  });

  it('a transcript without a cwd borrows one from its project folder; until then its directory is unknown (issue 13, point 16)', async () => {
    const { home, source } = setup();
    const older = writeTranscript(home, SID, [userLine('x', { cwd: '/home/dev/project' })]);
    const newer = writeTranscript(home, SID2, [userLine('y', { sessionId: SID2, cwd: '/home/dev/project/sub' })]);
    fs.utimesSync(older, new Date(1_000_000), new Date(1_000_000));
    fs.utimesSync(newer, new Date(2_000_000), new Date(2_000_000));
    writeTranscript(home, SID3, [metaLine('custom-title', { customTitle: 'no cwd here' }, SID3)]);
    const LONE = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
    writeTranscript(home, LONE, [metaLine('custom-title', { customTitle: 'alone' }, LONE)], '/somewhere/else');
    const byId = new Map((await source.list()).map((s) => [s.id, s]));
    // The folder is named after /home/dev/project: that cwd wins over the newer one a `cd` recorded.
    assert.equal(byId.get(SID3)?.cwd, '/home/dev/project');
    assert.equal(byId.get(SID3)?.repoRoot, '/home/dev/project');
    assert.equal(byId.get(LONE)?.cwd, null, 'nothing to borrow: unknown');
    assert.equal((await source.get(SID3))?.cwd, '/home/dev/project', 'get() borrows as list() does');
    assert.equal((await source.get(LONE))?.cwd, null);
  });

  it('a dormant session on a bare HEAD takes the repo current branch', async () => {
    const { home, source } = setup('develop');
    writeTranscript(home, SID, [userLine('x', { branch: 'HEAD' })]);
    assert.equal((await source.get(SID))?.branch, 'develop');
  });

  it('a live session: status, reason, pane and pid from the verified registry entry', async () => {
    const { home, proc, source } = setup();
    proc.add(claudeProc(15947, 28470));
    writeTranscript(home, SID, [userLine('write a file')]);
    writeRegistry(home, { pid: 15947, procStart: 28470, status: 'waiting', waitingFor: 'permission prompt', tmux: 'cc2:@1.%1' });
    const s = await source.get(SID);
    assert.ok(s);
    assert.equal(s.live, true);
    assert.equal(s.pid, 15947);
    assert.equal(s.status, 'waiting');
    assert.equal(s.waitingFor, 'permission prompt');
    assert.equal(s.statusSince, new Date(1796021600427).toISOString());
    assert.deepEqual(s.pane, { manager: 'tmux', id: '%1' });
    assert.equal(s.canEnd, true);
    assert.equal(s.branch, 'develop', 'a live session is on the branch checked out now');
    for (const [reg, want] of [['busy', 'working'], ['idle', 'idle'], [null, 'idle']] as const) {
      writeRegistry(home, { pid: 15947, procStart: 28470, status: reg });
      const again = await source.get(SID);
      assert.equal(again?.status, want, String(reg));
      assert.equal(again?.waitingFor, null);
    }
  });

  it('registry states other than busy/shell/idle/waiting are waiting with that reason, never idle (issue 13, point 17)', async () => {
    const { home, proc, source } = setup();
    proc.add(claudeProc(15947, 28470));
    writeTranscript(home, SID, [userLine('x')]);
    for (const [reg, reason] of [['needs_user', 'needs user'], ['needs_trust', 'needs trust'], ['blocked', 'blocked'], ['waiting', 'input needed']] as const) {
      writeRegistry(home, { pid: 15947, procStart: 28470, status: reg });
      const s = await source.get(SID);
      assert.deepEqual([s?.status, s?.waitingFor], ['waiting', reason], reg);
    }
    writeRegistry(home, { pid: 15947, procStart: 28470, status: 'needs_trust', waitingFor: 'trust this folder?' });
    assert.equal((await source.get(SID))?.waitingFor, 'trust this folder?', 'the entry\'s own reason wins');
  });

  it('a live session with no transcript yet is listed with the registry name', async () => {
    const { home, proc, source } = setup();
    proc.add(claudeProc(500));
    writeRegistry(home, { pid: 500, sessionId: SID2, name: 'perm-test', nameSource: 'user' });
    const list = await source.list();
    assert.deepEqual(list.map((s) => [s.id, s.title, s.live]), [[SID2, 'perm-test', true]]);
    assert.deepEqual(list[0]?.tokens, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  });

  it('a session resumed in two processes at once is one session with both processes', async () => {
    const { home, proc, source } = setup();
    proc.add(claudeProc(100, 10));
    proc.add(claudeProc(200, 20));
    writeTranscript(home, SID, [userLine('x')]);
    writeRegistry(home, { pid: 100, procStart: 10, status: 'idle', kind: 'interactive', entrypoint: 'cli', startedAt: 1 });
    writeRegistry(home, { pid: 200, procStart: 20, status: 'busy', kind: 'interactive', entrypoint: 'sdk-cli', startedAt: 2 });
    const list = await source.list();
    assert.equal(list.length, 1);
    const [s] = list;
    assert.deepEqual(s?.pids, [100, 200]);
    assert.equal(s?.pid, 100, 'the interactive process speaks for the session');
    assert.equal(s?.status, 'working', 'the busiest process wins');
  });

  it('a SIGKILL leftover does not make a session live and is counted as stale', async () => {
    const { home, source } = setup();
    writeTranscript(home, SID, [userLine('x')]);
    writeRegistry(home, { pid: 4242, procStart: 1, status: 'busy' });
    const s = await source.get(SID);
    assert.equal(s?.live, false);
    assert.equal(s?.status, 'ended');
    assert.equal(source.diagnostics().staleRegistryFiles, 1);
  });

  it('end: SIGTERM to a verified Claude process only', async () => {
    const { home, proc, source } = setup();
    proc.add(claudeProc(100, 10));
    writeRegistry(home, { pid: 100, procStart: 10 });
    assert.deepEqual(await source.end(SID), { outcome: 'ended', signal: 'SIGTERM', pid: 100 });
    assert.deepEqual(proc.signals, [{ pid: 100, signal: 'SIGTERM', delivered: true }]);
  });

  it('end: a reused pid or a pid of another program is never signalled', async () => {
    const { home, proc, source } = setup();
    proc.add(claudeProc(100, 99)); // pid 100 now belongs to a newer process
    proc.add({ pid: 300, startTicks: 30, argv: ['sleep', '60'], exe: '/usr/bin/sleep' });
    writeRegistry(home, { pid: 100, procStart: 10, sessionId: SID });
    writeRegistry(home, { pid: 300, procStart: 30, sessionId: SID2 });
    writeTranscript(home, SID3, [userLine('dormant')]);
    for (const id of [SID, SID2, SID3, '00000000-0000-4000-8000-000000000000']) {
      assert.equal((await source.end(id)).outcome, 'not_running', id);
    }
    assert.deepEqual(proc.signals, []);
    await assert.rejects(source.end('$(reboot)'), (e) => isMusterError(e) && e.code === 'invalid_id');
  });

  it('end: both processes of a doubly resumed session get SIGTERM', async () => {
    const { home, proc, source } = setup();
    proc.add(claudeProc(100, 10));
    proc.add(claudeProc(200, 20));
    writeRegistry(home, { pid: 100, procStart: 10 });
    writeRegistry(home, { pid: 200, procStart: 20 });
    const r = await source.end(SID);
    assert.equal(r.outcome, 'ended');
    assert.deepEqual(proc.signals.map((x) => x.pid).sort(), [100, 200]);
  });

  it('ids: exact UUIDs only; resumeArgv is an argv array', () => {
    const { source } = setup();
    assert.equal(source.isValidId(SID), true);
    assert.equal(source.isValidId(SID + '\n'), false);
    assert.equal(source.isValidId('ses_' + 'a'.repeat(26)), false);
    assert.equal(source.resumeArgv('; rm -rf /'), null);
  });

  it('keeps serving with corrupt inputs on disk, counting them', async () => {
    const { home, proc, source } = setup();
    proc.add({ pid: 300, startTicks: 30, argv: ['bash'], exe: '/usr/bin/bash' });
    writeRegistry(home, { pid: 300, procStart: 30, sessionId: SID2 }); // pid of another program
    fs.writeFileSync(path.join(home, 'sessions', '301.json'), '');
    fs.mkdirSync(path.join(home, 'sessions', '302.json'));
    const file = writeTranscript(home, SID, [userLine('good')]);
    fs.appendFileSync(file, Buffer.from([0xff, 0xfe, 0x0a]));
    fs.writeFileSync(path.join(path.dirname(file), `${SID3}.jsonl`), '');
    const list = await source.list();
    // The empty file has no Claude record yet: not a session (issue 13, point 9).
    assert.deepEqual(list.map((s) => [s.id, s.live]), [[SID, false]]);
    const d = source.diagnostics();
    assert.equal(d.staleRegistryFiles, 1);
    assert.equal(d.filesSkipped, 3, 'the empty and the directory registry entries, the empty transcript');
    assert.equal(d.linesSkipped, 1);
    assert.ok(d.errors.length >= 2);
  });

  it('a file without a Claude record, or a link leading outside the home, is not a session (issue 13, point 9)', async () => {
    const { home, source } = setup();
    const dir = path.dirname(writeTranscript(home, SID, [userLine('real')]));
    fs.symlinkSync('/etc/passwd', path.join(dir, `${SID2}.jsonl`));
    fs.writeFileSync(path.join(dir, `${SID3}.jsonl`), 'root:x:0:0:root:/root:/bin/bash\n{"no":"type"}\n');
    const outside = tempHome(); // a real transcript, but outside the Claude home
    homes.push(outside);
    const OUT = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
    const outFile = writeTranscript(outside, OUT, [userLine('elsewhere', { sessionId: OUT })]);
    fs.symlinkSync(outFile, path.join(dir, `${OUT}.jsonl`));
    fs.symlinkSync(path.dirname(outFile), path.join(home, 'projects', '-linked-folder'));
    // A link that stays inside the home is followed.
    const IN = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const kept = writeTranscript(path.join(home, 'backup'), IN, [userLine('moved', { sessionId: IN })]);
    fs.symlinkSync(kept, path.join(dir, `${IN}.jsonl`));
    assert.deepEqual((await source.list()).map((s) => s.id).sort(), [SID, IN].sort());
    for (const id of [SID2, SID3, OUT]) {
      assert.equal(await source.get(id), undefined, id);
      assert.deepEqual(await source.tail?.(id, 5), [], id);
    }
    const d = source.diagnostics();
    assert.ok(d.errors.filter((e) => e.includes('leads outside')).length >= 3, d.errors.join('\n'));
  });

  it('watch reports the ids whose registry entry or transcript changed, and stops when disposed', async () => {
    const { home, proc, source } = setup();
    proc.add(claudeProc(100, 10));
    const changes: SourceChange[] = [];
    const dispose = source.watch((c) => changes.push(c));
    try {
      // Neither directory exists yet: the watcher waits on the home and attaches when they appear.
      writeTranscript(home, SID, [userLine('x')]);
      await waitFor(() => changes.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      changes.length = 0;
      fs.appendFileSync(path.join(home, 'projects', '-home-dev-project', `${SID}.jsonl`), userLine('y') + '\n');
      await waitFor(() => changes.some((c) => c.ids.includes(SID)));
      fs.mkdirSync(path.join(home, 'sessions'));
      await waitFor(() => changes.some((c) => c.ids.length === 0)); // the registry dir appeared: re-list
      await new Promise((r) => setTimeout(r, 50));
      writeRegistry(home, { pid: 100, procStart: 10, sessionId: SID2 });
      await waitFor(() => changes.some((c) => c.ids.includes(SID2)));
    } finally {
      await dispose();
    }
    const n = changes.length;
    fs.appendFileSync(path.join(home, 'projects', '-home-dev-project', `${SID}.jsonl`), userLine('z') + '\n');
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(changes.length, n, 'no notification after dispose');
    assert.ok(changes.every((c) => c.harness === 'claude'));
  });
});

async function waitFor(cond: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting for a watch notification');
    await new Promise((r) => setTimeout(r, 10));
  }
}
