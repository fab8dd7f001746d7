import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFakeProc, type FakeProc } from '../../test/fakes/fake-proc.ts';
import { claudeProc, metaLine, userLine, writeRegistry, writeTranscript } from '../harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { createClaudeSource } from '../harnesses/claude/discovery/index.ts';
import { createEventBus, type MusterEvent } from '../events/index.ts';
import { MusterError } from '../errors/index.ts';
import type { PaneRef } from '../core/session.ts';
import { createHub, type Hub } from './hub.ts';
import { createActions, paneLabel, shellLine, type ActionRecord, type Actions, type PaneFocus, type PaneOps } from './actions.ts';

const LIVE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const DORMANT = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';
const GONE_DIR = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const NO_CWD = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** Pane ops double recording every call; nothing here reaches a real tmux. */
function fakePanes(opts: { map?: Map<number, PaneRef>; focus?: PaneFocus['outcome']; opener?: boolean } = {}) {
  const calls: { op: string; arg: unknown }[] = [];
  const ops: PaneOps = {
    peek: (pids) => pids.map((p) => opts.map?.get(p)).find(Boolean),
    locate: async (pids) => (calls.push({ op: 'locate', arg: pids }), pids.map((p) => opts.map?.get(p)).find(Boolean)),
    focus: async (pane) => {
      calls.push({ op: 'focus', arg: pane });
      const o = opts.focus ?? 'focused';
      if (o === 'focused') return { outcome: o, pane, client: '/dev/pts/9' };
      if (o === 'no_client') return { outcome: o, pane, hint: 'tmux attach' };
      if (o === 'pane_not_found') return { outcome: o, pane };
      return { outcome: o, pane, reason: 'old server' };
    },
    opener: async () =>
      opts.opener === false
        ? null
        : { kind: 'tmux', open: async (req) => (calls.push({ op: 'open', arg: req }), { pane: { manager: 'tmux', id: '%42', socket: '/s' }, pid: 4242 }) },
  };
  return { ops, calls };
}

describe('hub actions against a Claude home and a fake process table', () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-actions-'));
  const cwd = mkdtempSync(join(tmpdir(), 'muster-actions-cwd-'));
  let proc: FakeProc;
  let hub: Hub;
  const records: ActionRecord[] = [];
  const events: MusterEvent[] = [];
  const bus = createEventBus();
  bus.subscribe((e) => events.push(e));

  before(async () => {
    proc = createFakeProc({ processes: [claudeProc(5001, 777)] });
    writeRegistry(home, { pid: 5001, sessionId: LIVE, procStart: 777, cwd });
    writeTranscript(home, LIVE, [userLine('live one', { sessionId: LIVE, cwd })], cwd);
    writeTranscript(home, DORMANT, [userLine('fix $(rm -rf ~); `id` and a very long title that goes on and on', { sessionId: DORMANT, cwd })], cwd);
    writeTranscript(home, GONE_DIR, [userLine('old', { sessionId: GONE_DIR, cwd: '/no/such/dir' })], '/no/such/dir');
    // Only a title record, alone in its project folder: no directory anywhere.
    writeTranscript(home, NO_CWD, [metaLine('custom-title', { customTitle: 'no cwd' }, NO_CWD)], '/lonely/folder');
    hub = createHub({ sources: [createClaudeSource({ home, proc })], bus, isAlive: (p) => proc.isAlive(p), sweepMs: 60_000 });
    await hub.start();
  });
  after(async () => {
    await hub.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  });

  const make = (panes: PaneOps | null): Actions => createActions({ hub, bus, log: { append: async (r) => void records.push(r) }, panes, isDirectory: isDir });
  const code = (c: string) => (e: unknown) => e instanceof MusterError && e.code === c;

  it('refuses malformed ids before looking anything up, and records the refusal', async () => {
    const { ops, calls } = fakePanes();
    const a = make(ops);
    for (const bad of ['$(touch /tmp/x)', '../../etc', `ses_${'a'.repeat(25)}`, `${LIVE}\n`]) {
      await assert.rejects(a.focus(bad, 'api'), code('invalid_id'));
      await assert.rejects(a.resume(bad, 'api'), code('invalid_id'));
      await assert.rejects(a.end(bad, 'api'), code('invalid_id'));
    }
    assert.deepEqual(calls, [], 'no pane manager was asked anything');
    assert.equal(proc.signals.length, 0);
    assert.equal(records.at(-1)?.outcome, 'invalid_id');
  });

  it('an unknown id is session_not_found', async () => {
    await assert.rejects(make(fakePanes().ops).end('99999999-9999-4999-8999-999999999999', 'cli'), code('session_not_found'));
  });

  it('resume of a dormant session opens its resume argv in its cwd, labelled from the title (≤ 40 chars)', async () => {
    const { ops, calls } = fakePanes();
    const r = await make(ops).resume(DORMANT, 'board');
    assert.equal(r.outcome, 'resumed');
    const open = calls.find((c) => c.op === 'open')?.arg as { cwd: string; argv: string[]; label: string };
    assert.deepEqual(open.argv, ['claude', '--resume', DORMANT]);
    assert.equal(open.cwd, cwd);
    assert.equal(open.label, 'fix $(rm -rf ~); `id` and a very long ti');
    assert.ok([...open.label].length <= 40);
    const rec = records.at(-1);
    assert.equal(rec?.actor, 'board');
    assert.equal(rec?.action, 'resume');
    assert.equal(rec?.outcome, 'resumed');
    assert.equal(rec?.harness, 'claude');
    const ev = events.filter((e) => e.type === 'session.action.recorded').at(-1);
    assert.deepEqual(ev?.data, rec, 'the record went out on the bus');
  });

  it('resume --print answers argv and cwd and opens nothing; without a pane manager the answer carries the command', async () => {
    const { ops, calls } = fakePanes({ opener: false });
    assert.deepEqual(await make(ops).resume(DORMANT, 'cli', { print: true }), { outcome: 'printed', argv: ['claude', '--resume', DORMANT], cwd });
    await assert.rejects(make(ops).resume(DORMANT, 'cli'), (e: unknown) => {
      assert.ok(e instanceof MusterError && e.code === 'no_pane_manager' && e.status === 503);
      assert.equal(e.details?.command, shellLine(cwd, ['claude', '--resume', DORMANT]));
      assert.match(e.message, /run it by hand: cd /);
      return true;
    });
    assert.equal(calls.filter((c) => c.op === 'open').length, 0);
  });

  it('resume of a session whose directory is gone says so', async () => {
    await assert.rejects(make(fakePanes().ops).resume(GONE_DIR, 'api'), code('cwd_missing'));
  });

  it('resume of a session whose directory is unknown says so, with its own code (issue 13, point 16)', async () => {
    await assert.rejects(make(fakePanes().ops).resume(NO_CWD, 'api'), (e: unknown) => {
      assert.ok(e instanceof MusterError && e.code === 'cwd_unknown' && e.status === 409);
      assert.match(e.message, /directory is unknown/);
      assert.doesNotMatch(e.message, /null/);
      return true;
    });
  });

  it('resume of a live session focuses it instead', async () => {
    const { ops, calls } = fakePanes({ map: new Map([[5001, { manager: 'tmux', id: '%7', socket: '/s' }]]) });
    const r = await make(ops).resume(LIVE, 'board');
    assert.deepEqual(r, { outcome: 'already_live', focus: { outcome: 'focused', pane: { manager: 'tmux', id: '%7', socket: '/s' } } });
    assert.equal(calls.filter((c) => c.op === 'open').length, 0);
  });

  it('focus answers focused, or precisely why not', async () => {
    const pane = { manager: 'tmux', id: '%7', socket: '/s' };
    const map = new Map([[5001, pane]]);
    assert.deepEqual(await make(fakePanes({ map }).ops).focus(LIVE, 'cli'), { outcome: 'focused', pane, client: '/dev/pts/9' });
    await assert.rejects(make(fakePanes({ map, focus: 'no_client' }).ops).focus(LIVE, 'cli'), code('no_client'));
    await assert.rejects(make(fakePanes({ map, focus: 'pane_not_found' }).ops).focus(LIVE, 'cli'), code('no_pane'));
    await assert.rejects(make(fakePanes().ops).focus(LIVE, 'cli'), code('no_pane'));
    await assert.rejects(make(fakePanes({ map }).ops).focus(DORMANT, 'cli'), code('session_not_live'));
    await assert.rejects(make(null).focus(LIVE, 'cli'), code('no_pane_manager'));
  });

  it('decorate fills the pane of a live session from the map; a dormant one keeps none', () => {
    const pane = { manager: 'tmux', id: '%7', socket: '/s' };
    const a = make(fakePanes({ map: new Map([[5001, pane]]) }).ops);
    assert.deepEqual(a.decorate(hub.get(LIVE)!).pane, pane);
    assert.equal(a.decorate(hub.get(DORMANT)!).pane, null);
  });

  it('end of a pid reused by an unrelated process signals nothing and answers 409', async () => {
    proc.setStartTicks(5001, 999); // the pid now belongs to a process started later
    await assert.rejects(make(fakePanes().ops).end(LIVE, 'board'), (e: unknown) => e instanceof MusterError && e.code === 'not_running' && e.status === 409);
    assert.deepEqual(proc.signals, []);
    assert.equal(records.at(-1)?.outcome, 'not_running');
    proc.setStartTicks(5001, 777);
  });

  it('end of a live Claude session sends SIGTERM and the session shows ended', async () => {
    const r = await make(fakePanes().ops).end(LIVE, 'cli');
    assert.deepEqual(r, { outcome: 'ended', signal: 'SIGTERM', pid: 5001 });
    assert.deepEqual(proc.signals, [{ pid: 5001, signal: 'SIGTERM', delivered: true }]);
    await hub.refresh('claude');
    assert.equal(hub.get(LIVE)?.status, 'ended');
    assert.equal(hub.get(LIVE)?.live, false);
    await assert.rejects(make(fakePanes().ops).end(LIVE, 'cli'), code('not_running'));
  });
});

describe('paneLabel', () => {
  it('keeps one trimmed line of at most 40 characters, counting code points', () => {
    assert.equal(paneLabel('  a\nb\tc  ', 'x'), 'a b c');
    assert.equal(paneLabel('', 'claude 1234abcd'), 'claude 1234abcd');
    assert.equal([...paneLabel('🙂'.repeat(50), 'x')].length, 40);
  });
});
