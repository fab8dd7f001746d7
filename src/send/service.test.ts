// The send service over a real Claude source (a temp home, a fake process table) for the pane and
// resume paths, and small sources for the inbox and server paths: what is typed, where, when it is
// refused, and that every attempt lands in the action log.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFakeProc, type FakeProc } from '../../test/fakes/fake-proc.ts';
import { claudeProc, userLine, writeRegistry, writeTranscript } from '../harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { createClaudeSource } from '../harnesses/claude/discovery/index.ts';
import type { SessionSource } from '../discovery/contract.ts';
import { createEventBus } from '../events/index.ts';
import { MusterError } from '../errors/index.ts';
import { adapterFor } from '../harnesses/registry.ts';
import { createInbox } from '../inbox/index.ts';
import { emptyTokens, type PaneRef, type Session } from '../core/session.ts';
import { createActionRecorder, createHub, type ActionRecord, type Hub } from '../hub/index.ts';
import { createSender, type Sender, type SenderOptions } from './service.ts';
import type { PaneTarget } from './ports.ts';
import { MAX_RESUME_PROMPT_BYTES } from './text.ts';

const LIVE = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const WAITING = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
const DORMANT = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';
const PANE: PaneRef = { manager: 'tmux', id: '%7', socket: '/s' };
const HOSTILE = 'fix it: $(touch /tmp/muster-send-pwned) `id`\nand a second line';

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};
const code = (c: string) => (e: unknown) => e instanceof MusterError && e.code === c;

/** Pane input and opener double: what target() answers is set per test; typed and opened are recorded. */
function fakePanes() {
  const typed: { pane: PaneRef; text: string }[] = [];
  const opened: { cwd: string; argv: string[]; label: string }[] = [];
  let answer: (pid: number) => PaneTarget = () => ({ ok: false, reason: 'no_pane', pane: null });
  return {
    typed,
    opened,
    set: (f: (pid: number) => PaneTarget) => void (answer = f),
    ops: {
      target: async (pid: number) => answer(pid),
      type: async (pane: PaneRef, text: string) => (typed.push({ pane, text }), 'typed' as const),
      opener: async () => ({ kind: 'tmux', open: async (req: { cwd: string; argv: string[]; label: string }) => (opened.push(req), { pane: { ...PANE, id: '%42' }, pid: 4242 }) }),
    },
  };
}

describe('send: pane and resume paths against a Claude home', () => {
  const home = mkdtempSync(join(tmpdir(), 'muster-send-'));
  const cwd = mkdtempSync(join(tmpdir(), 'muster-send-cwd-'));
  const bus = createEventBus();
  const records: ActionRecord[] = [];
  let proc: FakeProc;
  let hub: Hub;
  let panes: ReturnType<typeof fakePanes>;
  let sender: Sender;

  before(async () => {
    proc = createFakeProc({ processes: [claudeProc(5001, 777), claudeProc(5002, 888)] });
    writeRegistry(home, { pid: 5001, sessionId: LIVE, procStart: 777, cwd });
    writeRegistry(home, { pid: 5002, sessionId: WAITING, procStart: 888, cwd, status: 'waiting', waitingFor: 'permission prompt' });
    writeTranscript(home, LIVE, [userLine('live one', { sessionId: LIVE, cwd })], cwd);
    writeTranscript(home, WAITING, [userLine('asks', { sessionId: WAITING, cwd })], cwd);
    writeTranscript(home, DORMANT, [userLine('old work', { sessionId: DORMANT, cwd })], cwd);
    hub = createHub({ sources: [createClaudeSource({ home, proc })], bus, isAlive: (p) => proc.isAlive(p), sweepMs: 60_000 });
    await hub.start();
    panes = fakePanes();
    sender = createSender({
      hub,
      inbox: createInbox(),
      support: (h) => adapterFor(h).send,
      panes: panes.ops,
      startTicks: (pid) => proc.read(pid)?.startTicks ?? null,
      isDirectory: isDir,
      record: createActionRecorder({ log: { append: async (r) => void records.push(r) }, bus }),
    });
  });
  after(async () => {
    await hub.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  });

  it('an idle live session is typed into its verified pane, the text verbatim; the log has its size and a short excerpt', async () => {
    panes.set((pid) => ({ ok: true, pane: PANE, startTicks: proc.read(pid)?.startTicks ?? -1 }));
    const r = await sender.send(LIVE, HOSTILE, 'cli');
    assert.deepEqual(r, { outcome: 'sent', delivered: 'pane', queued: false, pane: PANE, pid: 5001 });
    assert.deepEqual(panes.typed.at(-1), { pane: PANE, text: HOSTILE });
    const rec = records.at(-1);
    assert.equal(rec?.action, 'send');
    assert.equal(rec?.outcome, 'sent');
    assert.equal(rec?.harness, 'claude');
    assert.equal(rec?.detail.bytes, Buffer.byteLength(HOSTILE));
    assert.equal(rec?.detail.excerpt, 'fix it: $(touch /tmp/muster-send-pwned) `id` and a second line');
  });

  it('a pane whose foreground is another program, or whose terminal is in line mode, is refused: pane_mismatch, nothing typed', async () => {
    const before = panes.typed.length;
    for (const reason of ['not_foreground', 'line_mode', 'unknown_mode'] as const) {
      panes.set(() => ({ ok: false, reason, pane: PANE }));
      await assert.rejects(sender.send(LIVE, 'hello', 'board'), code('pane_mismatch'), reason);
      assert.equal(records.at(-1)?.outcome, 'pane_mismatch');
    }
    panes.set(() => ({ ok: false, reason: 'no_pane', pane: null }));
    await assert.rejects(sender.send(LIVE, 'hello', 'board'), code('no_pane'));
    assert.equal(panes.typed.length, before);
  });

  it('a pid whose process in the pane started at another time than the verified one is not typed to', async () => {
    const before = panes.typed.length;
    panes.set(() => ({ ok: true, pane: PANE, startTicks: 999_999 }));
    await assert.rejects(sender.send(LIVE, 'hello', 'cli'), code('not_running'));
    // And a pid the source no longer verifies (it was reused: new start ticks) never reaches the pane check.
    panes.set(() => assert.fail('the pane was consulted for an unverified process'));
    proc.setStartTicks(5001, 123);
    await assert.rejects(sender.send(LIVE, 'hello', 'cli'), code('not_running'));
    proc.setStartTicks(5001, 777);
    assert.equal(panes.typed.length, before);
  });

  it('a session waiting on a permission prompt is busy: nothing is typed', async () => {
    panes.set((pid) => ({ ok: true, pane: PANE, startTicks: proc.read(pid)?.startTicks ?? -1 }));
    const before = panes.typed.length;
    await assert.rejects(sender.send(WAITING, '1', 'cli'), code('busy'));
    assert.equal(panes.typed.length, before);
  });

  it('a question the harness\'s files show just now wins over an idle listing: busy, nothing typed', async () => {
    panes.set((pid) => ({ ok: true, pane: PANE, startTicks: proc.read(pid)?.startTicks ?? -1 }));
    const before = panes.typed.length;
    writeRegistry(home, { pid: 5001, sessionId: LIVE, procStart: 777, cwd, status: 'waiting', waitingFor: 'permission prompt' });
    await assert.rejects(sender.send(LIVE, '1', 'cli'), code('busy'));
    writeRegistry(home, { pid: 5001, sessionId: LIVE, procStart: 777, cwd });
    await hub.refresh('claude');
    assert.equal(panes.typed.length, before);
  });

  it('a pid that is not one of the session\'s processes is process_not_found', async () => {
    await assert.rejects(sender.send(LIVE, 'hello', 'cli', { pid: 5002 }), code('process_not_found'));
  });

  it('a dormant session is resumed in a new pane with the prompt as one argv element, in its cwd', async () => {
    const r = await sender.send(DORMANT, HOSTILE, 'cli');
    assert.deepEqual(r, { outcome: 'sent', delivered: 'resumed', queued: false, pane: { ...PANE, id: '%42' }, pid: 4242, manager: 'tmux' });
    assert.deepEqual(panes.opened.at(-1), { cwd, argv: ['claude', '--resume', DORMANT, '--', HOSTILE], label: 'old work' });
  });

  it('a dormant session cannot take more than fits a command line: 413 with what to do instead', async () => {
    const before = panes.opened.length;
    await assert.rejects(sender.send(DORMANT, 'x'.repeat(MAX_RESUME_PROMPT_BYTES + 1), 'cli'), (e: unknown) => code('payload_too_large')(e) && /muster resume/.test((e as Error).message));
    assert.equal(panes.opened.length, before);
  });

  it('bad input is refused before any lookup, and recorded: empty 400, over 100 KiB 413, malformed id 400, wrong harness 404', async () => {
    await assert.rejects(sender.send(LIVE, '  ', 'cli'), code('invalid_body'));
    await assert.rejects(sender.send(LIVE, 'y'.repeat(100 * 1024 + 1), 'cli'), code('payload_too_large'));
    await assert.rejects(sender.send('$(touch x)', 'hello', 'cli'), code('invalid_id'));
    await assert.rejects(sender.send(LIVE, 'hello', 'cli', { harness: 'codex' }), code('session_not_found'));
    assert.deepEqual(records.slice(-4).map((r) => r.outcome), ['invalid_body', 'payload_too_large', 'invalid_id', 'session_not_found']);
  });
});

/** A one-session source for the inbox and server paths (no process, no files). */
function oneSession(s: Partial<Session> & Pick<Session, 'harness' | 'id'>, prompt?: SessionSource['prompt']): SessionSource {
  const session: Session = {
    title: 't', cwd: '/tmp', repoRoot: null, branch: null, live: true, pid: 77, pids: [77], status: 'idle', waitingFor: null, statusSince: null,
    startedAt: null, lastActivityAt: null, model: null, tokens: emptyTokens(), costUsd: null, prLinks: [], pane: null, canEnd: true, resumeArgv: null, ...s,
  };
  return {
    harness: s.harness, list: async () => [session], get: async () => session, watch: () => () => {}, end: async () => ({ outcome: 'unsupported', reason: 'n/a' }),
    resumeArgv: () => null, isValidId: () => true, diagnostics: () => ({ harness: s.harness, filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, staleRegistryFiles: 0, notRegularFiles: 0, errors: [] }),
    ...(prompt ? { prompt } : {}),
  };
}

describe('send: the harness\'s own channels', () => {
  const PI = '01a22b3e-0000-7000-8000-000000000001';
  const OC = 'ses_0123456789abcdefghijklmnop';
  const bus = createEventBus();
  const hubs: Hub[] = [];
  after(async () => {
    for (const h of hubs) await h.close();
  });
  async function make(sources: SessionSource[], extra: Partial<SenderOptions> = {}) {
    const hub = createHub({ sources, bus, isAlive: () => true, sweepMs: 60_000 });
    hubs.push(hub);
    await hub.start();
    const inbox = createInbox();
    const panes = fakePanes();
    const sender = createSender({
      hub, inbox, support: (h) => adapterFor(h).send, panes: panes.ops, startTicks: () => 1, isDirectory: () => true,
      record: createActionRecorder({ log: { append: async () => {} }, bus }), ...extra,
    });
    return { inbox, panes, sender };
  }

  it('pi with Muster\'s extension listening: the inbox takes it, queued while a turn runs; nothing is typed', async () => {
    const { inbox, panes, sender } = await make([oneSession({ harness: 'pi', id: PI, status: 'working' })]);
    const poll = inbox.wait([PI], 5000);
    const [r, got] = await Promise.all([sender.send(PI, HOSTILE, 'board'), poll]);
    assert.deepEqual(r, { outcome: 'sent', delivered: 'inbox', queued: true });
    assert.deepEqual(got.map((p) => p.text), [HOSTILE]);
    assert.equal(panes.typed.length, 0);
  });

  it('an OpenCode session on its server: prompt_async; a server gone meanwhile falls through to the next channel', async () => {
    const sent: string[] = [];
    let up = true;
    const { sender, panes } = await make([oneSession({ harness: 'opencode', id: OC, live: false, pid: null, pids: [], status: 'ended', promptable: true }, async (_id, text) => {
      if (!up) return { ok: false, reason: 'no_channel', message: 'no server' };
      sent.push(text);
      return { ok: true, via: 'prompt_async' };
    })]);
    assert.deepEqual(await sender.send(OC, HOSTILE, 'api'), { outcome: 'sent', delivered: 'server', queued: false });
    assert.deepEqual(sent, [HOSTILE]);
    up = false;
    const r = await sender.send(OC, 'again', 'api');
    assert.equal(r.delivered, 'resumed');
    assert.deepEqual(panes.opened.at(-1)?.argv, ['opencode', '-s', OC, '--prompt=again']);
  });

  it('a Codex daemon thread in a turn: its server refuses it as busy (turn/start would steer it), and nothing is typed instead', async () => {
    const CX = '01a22b3e-0000-7000-8000-0000000000c0';
    const { sender, panes } = await make([oneSession({ harness: 'codex', id: CX, status: 'working', promptable: true, processVerified: true }, async () => (
      { ok: false, reason: 'busy', message: 'Codex thread is in a turn' }
    ))]);
    await assert.rejects(sender.send(CX, 'hello', 'cli'), code('busy'));
    assert.equal(panes.typed.length, 0);
    assert.equal(panes.opened.length, 0);
  });

  it('a prompt no listener takes in time is withdrawn and reported, never left to arrive later', async () => {
    const { inbox, sender } = await make([oneSession({ harness: 'pi', id: PI })], { inboxTimeoutMs: 50 });
    // A listener that polled and went away: it still counts as listening, but nobody takes the prompt.
    await inbox.wait([PI], 0);
    await assert.rejects(sender.send(PI, 'hello', 'cli'), code('harness_failed'));
    assert.deepEqual(await inbox.wait([PI], 0), []);
  });
});
