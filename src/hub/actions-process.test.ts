/**
 * A session open in two processes at once (Claude allows `--resume` of a live session): one row,
 * each process with its own status and pane, and focus/end acting on a chosen pid.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFakeProc, type FakeProc } from '../../test/fakes/fake-proc.ts';
import { claudeProc, userLine, writeRegistry, writeTranscript } from '../harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { createClaudeSource } from '../harnesses/claude/discovery/index.ts';
import { createEventBus } from '../events/index.ts';
import { MusterError } from '../errors/index.ts';
import type { SessionSource } from '../discovery/contract.ts';
import { emptyTokens, type PaneRef, type Session } from '../core/session.ts';
import { createHub, type Hub } from './hub.ts';
import { createActions, type Actions, type PaneOps } from './actions.ts';

const SID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const code = (c: string, status?: number) => (e: unknown) => e instanceof MusterError && e.code === c && (status === undefined || e.status === status);

function panes(map: Map<number, PaneRef>): { ops: PaneOps; focused: PaneRef[] } {
  const focused: PaneRef[] = [];
  const ops: PaneOps = {
    peek: (pids) => pids.map((p) => map.get(p)).find(Boolean),
    locate: async (pids) => pids.map((p) => map.get(p)).find(Boolean),
    focus: async (pane) => (focused.push(pane), { outcome: 'focused', pane, client: '/dev/pts/1' }),
    opener: async () => null,
  };
  return { ops, focused };
}

describe('a Claude session resumed in a second process while the first runs', () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-two-procs-'));
  const cwd = mkdtempSync(join(tmpdir(), 'muster-two-procs-cwd-'));
  let proc: FakeProc;
  let hub: Hub;
  const bus = createEventBus();
  const make = (ops: PaneOps | null): Actions => createActions({ hub, bus, log: { append: async () => {} }, panes: ops, isDirectory: () => true });

  before(async () => {
    proc = createFakeProc({ processes: [claudeProc(5101, 701), claudeProc(5102, 702), claudeProc(5103, 703)] });
    writeRegistry(home, { pid: 5101, procStart: 701, sessionId: SID, cwd, status: 'waiting', waitingFor: 'approve Bash: rm -rf build', tmux: 'w:@1.%11', startedAt: 1796021000000 });
    writeRegistry(home, { pid: 5102, procStart: 702, sessionId: SID, cwd, status: 'busy', tmux: 'w:@2.%12', startedAt: 1796021500000 });
    writeTranscript(home, SID, [userLine('twice open', { sessionId: SID, cwd })], cwd);
    hub = createHub({ sources: [createClaudeSource({ home, proc })], bus, isAlive: (p) => proc.isAlive(p), sweepMs: 60_000 });
    await hub.start();
  });
  after(async () => {
    await hub.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  });

  it('is one session with both pids, each process with its own status, reason and pane', () => {
    const s = hub.get(SID);
    assert.ok(s);
    assert.deepEqual(s.pids, [5101, 5102]);
    assert.equal(s.status, 'waiting', 'the session shows its most urgent process');
    assert.deepEqual(s.processes?.map((p) => [p.pid, p.status, p.waitingFor, p.pane?.id]), [
      [5101, 'waiting', 'approve Bash: rm -rf build', '%11'],
      [5102, 'working', null, '%12'],
    ]);
    assert.equal(s.processes?.[0]?.startedAt, new Date(1796021000000).toISOString());
  });

  it('focus with a pid brings that process\'s pane to the front; without one, as before', async () => {
    const { ops, focused } = panes(new Map());
    const a = make(ops);
    assert.equal((await a.focus(SID, 'cli', { pid: 5101 })).pane.id, '%11');
    assert.equal((await a.focus(SID, 'cli', { pid: 5102 })).pane.id, '%12');
    assert.equal((await a.focus(SID, 'cli')).pane.id, '%12', 'the main process (the newest interactive one)');
    assert.deepEqual(focused.map((p) => p.id), ['%11', '%12', '%12']);
  });

  it('a pid that is not one of the session\'s processes is process_not_found (404); a malformed one invalid_argument', async () => {
    const a = make(panes(new Map()).ops);
    await assert.rejects(a.focus(SID, 'api', { pid: 5103 }), code('process_not_found', 404));
    await assert.rejects(a.end(SID, 'api', { pid: 5103 }), code('process_not_found', 404));
    await assert.rejects(a.end(SID, 'api', { pid: -1 }), code('invalid_argument', 400));
    await assert.rejects(a.focus(SID, 'api', { pid: 1.5 }), code('invalid_argument', 400));
    assert.deepEqual(proc.signals, []);
  });

  it('decorate fills a process\'s pane from the pid → pane map when the registry names none', async () => {
    writeRegistry(home, { pid: 5103, procStart: 703, sessionId: SID, cwd, status: 'idle', startedAt: 1796021900000 });
    await hub.refresh('claude');
    const a = make(panes(new Map([[5103, { manager: 'tmux', id: '%13', socket: '/s' }]])).ops);
    const s = a.decorate(hub.get(SID) as Session);
    assert.deepEqual(s.processes?.map((p) => p.pane?.id), ['%11', '%12', '%13']);
    assert.equal(s.processes?.[2]?.pane?.socket, '/s');
  });

  it('end with a pid signals that process only; the session stays live in the others', async () => {
    const r = await make(null).end(SID, 'cli', { pid: 5101 });
    assert.deepEqual(r, { outcome: 'ended', signal: 'SIGTERM', pid: 5101 });
    assert.deepEqual(proc.signals.map((x) => x.pid), [5101]);
    await hub.refresh('claude');
    const s = hub.get(SID);
    assert.equal(s?.live, true);
    assert.deepEqual(s?.processes?.map((p) => p.pid), [5102, 5103]);
    assert.equal(s?.status, 'working');
  });
});

describe('a source that ends sessions only as a whole', () => {
  const ID = '11111111-1111-4111-8111-111111111111';
  it('refuses to end one pid of several, and ends the one process it has when asked by its pid', async () => {
    const ended: string[] = [];
    const session = (pids: number[]): Session => ({
      harness: 'codex', id: ID, title: 't', cwd: '/w', repoRoot: null, branch: null, live: true, pid: pids[0] ?? null, pids, status: 'working',
      waitingFor: null, statusSince: null, startedAt: null, lastActivityAt: null, model: null, tokens: emptyTokens(), costUsd: null, prLinks: [],
      pane: null, canEnd: true, resumeArgv: null,
    });
    let current = session([7001, 7002]);
    const src: SessionSource = {
      harness: 'codex', list: async () => [current], get: async () => current, watch: () => () => {},
      end: async (id, o) => (ended.push(`${id}:${o?.pid ?? '-'}`), { outcome: 'ended', signal: 'SIGINT', pid: current.pid ?? 0 }),
      resumeArgv: () => null, isValidId: () => true,
      diagnostics: () => ({ harness: 'codex', filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, staleRegistryFiles: 0, notRegularFiles: 0, errors: [] }),
    };
    const bus = createEventBus();
    const hub = createHub({ sources: [src], bus, isAlive: () => true, sweepMs: 60_000 });
    await hub.start();
    try {
      const a = createActions({ hub, bus, log: { append: async () => {} }, panes: null, isDirectory: () => true });
      await assert.rejects(a.end(ID, 'cli', { pid: 7002 }), code('unsupported', 501));
      await assert.rejects(a.end(ID, 'cli', { pid: 7003 }), code('process_not_found', 404));
      current = session([7001]);
      await hub.refresh('codex');
      assert.equal((await a.end(ID, 'cli', { pid: 7001 })).pid, 7001);
      assert.deepEqual(ended, [`${ID}:-`], 'the source was asked to end the session, with no pid');
    } finally {
      await hub.close();
    }
  });
});
