/**
 * Forked sessions (`claude --resume S --fork-session`): the fork's file repeats S's messages and its
 * cost-state records carry S's running cost. Shapes follow what Claude Code 2.1.332 wrote against the
 * fake model, `-p` and interactive: copies keep their original times and ids and name S in
 * `requestSessionId`; the fork's cost-state keeps S's `startTime`.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createClaudeSource } from './source.ts';
import type { Session } from '../../../core/session.ts';
import { assistantLine, metaLine, SID, SID2, tempHome, userLine, writeTranscript } from './claude-fixtures.test-support.ts';

const FORK = SID2;
const FORK2 = '682ae5a7-f5b4-413d-add4-f68eb2ad632e';
const START = 1796126126336;
const cost = (totalCostUSD: number, sid: string, startTime = START): string => metaLine('cost-state', { totalCostUSD, startTime }, sid);
const t = (s: number): string => new Date(Date.parse('2026-12-01T11:55:27.000Z') + s * 1000).toISOString();
const sum = (list: Session[]): number => Math.round(list.reduce((a, s) => a + (s.costUsd ?? 0), 0) * 1e6) / 1e6;

/** The parent: two turns (cost 0.0885 after the second), then, after the fork, one more turn. */
function parent(after = true): string[] {
  return [
    metaLine('queue-operation', { operation: 'enqueue', timestamp: t(0) }),
    userLine('first turn', { ts: t(0.2) }),
    assistantLine({ id: 'msg_1', requestId: 'req_1', input: 100, output: 10, ts: t(0.4) }),
    cost(0.0405, SID),
    userLine('second turn', { ts: t(1) }),
    assistantLine({ id: 'msg_2', requestId: 'req_2', input: 200, output: 20, ts: t(1.2) }),
    cost(0.0885, SID),
    ...(after ? [userLine('parent again', { ts: t(5) }), assistantLine({ id: 'msg_4', requestId: 'req_4', input: 50, output: 5, ts: t(5.2) }), cost(0.1, SID)] : []),
  ];
}

/** The fork: its own first records, the copies (original times, requestSessionId), then its own turn. */
function fork(opts: { from?: string; marked?: boolean; own?: boolean; ownCost?: number } = {}): string[] {
  const from = opts.from ?? SID;
  const mark = opts.marked === false ? {} : { requestSessionId: from };
  return [
    metaLine('mode', { mode: 'normal' }, FORK),
    userLine('first turn', { ts: t(0.2), sessionId: FORK }),
    assistantLine({ id: 'msg_1', requestId: 'req_1', input: 100, output: 10, ts: t(0.4), sessionId: FORK, ...mark }),
    userLine('second turn', { ts: t(1), sessionId: FORK }),
    assistantLine({ id: 'msg_2', requestId: 'req_2', input: 200, output: 20, ts: t(1.2), sessionId: FORK, ...mark }),
    ...(opts.own === false ? [] : [
      userLine('fork turn', { ts: t(3), sessionId: FORK }),
      assistantLine({ id: 'msg_3', requestId: 'req_3', input: 300, output: 30, ts: t(3.2), sessionId: FORK }),
      ...(opts.ownCost === undefined ? [cost(0.1125, FORK)] : opts.ownCost < 0 ? [] : [cost(opts.ownCost, FORK)]),
    ]),
  ];
}

/** A fork of the fork: the fork's records copied (its first message on), then one turn of its own. */
function forkOfFork(): string[] {
  return [
    ...fork().slice(1).map((l) => l.replaceAll(`"sessionId":"${FORK}"`, `"sessionId":"${FORK2}"`)),
    userLine('fork of fork', { ts: t(8), sessionId: FORK2 }),
    assistantLine({ id: 'msg_5', requestId: 'req_5', input: 10, output: 1, ts: t(8.2), sessionId: FORK2 }),
    cost(0.1225, FORK2),
  ];
}

describe('forked claude sessions', () => {
  const homes: string[] = [];
  after(() => { for (const h of homes) fs.rmSync(h, { recursive: true, force: true }); });
  const setup = (): { home: string; source: ReturnType<typeof createClaudeSource> } => {
    const home = tempHome();
    homes.push(home);
    const git = { read: () => ({ repoRoot: null, branch: null }) };
    return { home, source: createClaudeSource({ home, proc: createFakeProc(), git }) };
  };
  const byId = (list: Session[], id: string): Session => {
    const s = list.find((x) => x.id === id);
    assert.ok(s, id);
    return s;
  };

  it('a fork counts only what it spent itself and names its parent; the sum counts no message twice', async () => {
    const { home, source } = setup();
    writeTranscript(home, SID, parent(false));
    writeTranscript(home, FORK, fork());
    const list = await source.list();
    const p = byId(list, SID);
    const f = byId(list, FORK);
    assert.equal(p.costUsd, 0.0885);
    assert.deepEqual(p.tokens, { input: 300, output: 30, cacheRead: 0, cacheWrite: 0 });
    assert.equal(p.forkedFrom, null);
    assert.equal(f.forkedFrom, SID);
    assert.deepEqual(f.tokens, { input: 300, output: 30, cacheRead: 0, cacheWrite: 0 });
    assert.equal(f.costUsd, 0.024, 'the fork cost-state carried the parent\'s 0.0885');
    assert.equal(sum(list), 0.1125, 'the real spend');
    const one = await source.get(FORK);
    assert.equal(one?.costUsd, 0.024);
    assert.equal(one?.forkedFrom, SID);
    assert.deepEqual(one?.tokens, f.tokens);
  });

  it('the parent resumed after the fork keeps its own later turns; the fork subtracts only the cost at the fork', async () => {
    const { home, source } = setup();
    writeTranscript(home, SID, parent(true));
    writeTranscript(home, FORK, fork());
    const list = await source.list();
    assert.equal(byId(list, SID).costUsd, 0.1);
    assert.equal(byId(list, FORK).costUsd, 0.024);
    assert.equal(sum(list), 0.124);
  });

  it('without requestSessionId (an older copy) the ids decide, and the earlier transcript keeps the messages', async () => {
    const { home, source } = setup();
    writeTranscript(home, SID, parent(false));
    writeTranscript(home, FORK, fork({ marked: false }));
    const list = await source.list();
    assert.equal(byId(list, SID).costUsd, 0.0885, 'the parent started first (queue-operation before the copies)');
    assert.equal(byId(list, FORK).forkedFrom, SID);
    assert.equal(byId(list, FORK).costUsd, 0.024);
  });

  it('a tie on start time goes to the session the copies name, whatever the ids', async () => {
    const { home, source } = setup();
    // An interactive parent's first record is the prompt, which the fork copies with the same time.
    writeTranscript(home, SID, parent(false).slice(1));
    writeTranscript(home, FORK, fork());
    assert.ok(FORK < SID, 'the fork has the smaller id: an id order alone would pick it');
    const list = await source.list();
    assert.equal(byId(list, SID).costUsd, 0.0885);
    assert.equal(byId(list, FORK).forkedFrom, SID);
    assert.equal(byId(list, FORK).costUsd, 0.024);
  });

  it('before its first cost record a fork costs the list price of its own messages only', async () => {
    const { home, source } = setup();
    writeTranscript(home, SID, parent(false));
    writeTranscript(home, FORK, fork({ ownCost: -1 }));
    const f = byId(await source.list(), FORK);
    // Sonnet 4.5: 300 × $3/M + 30 × $15/M.
    assert.equal(f.costUsd, 0.00135);
    assert.deepEqual(f.tokens, { input: 300, output: 30, cacheRead: 0, cacheWrite: 0 });
  });

  it('a fork of a fork names the fork, and each message is counted once', async () => {
    const { home, source } = setup();
    writeTranscript(home, SID, parent(false));
    writeTranscript(home, FORK, fork());
    writeTranscript(home, FORK2, forkOfFork());
    const list = await source.list();
    const g = byId(list, FORK2);
    assert.equal(g.forkedFrom, FORK);
    assert.deepEqual(g.tokens, { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 });
    assert.equal(g.costUsd, 0.01);
    assert.equal(sum(list), 0.1225);
  });

  it('a listing of unchanged transcripts hands out the same sessions again; a fork written after it, or a parent gone, is compared at once', async () => {
    const { home, source } = setup();
    const parentFile = writeTranscript(home, SID, parent(false));
    writeTranscript(home, FORK, fork());
    const first = await source.list();
    const again = await source.list();
    assert.equal(byId(again, FORK), byId(first, FORK), 'the very session object');
    assert.equal(byId(again, FORK).costUsd, 0.024);
    writeTranscript(home, FORK2, forkOfFork());
    const third = await source.list();
    assert.equal(byId(third, FORK2).forkedFrom, FORK);
    assert.equal(byId(third, FORK2).costUsd, 0.01);
    fs.rmSync(parentFile);
    const fourth = await source.list();
    assert.equal(fourth.some((s) => s.id === SID), false);
    assert.equal(byId(fourth, FORK).forkedFrom, SID, 'still names the parent that is gone');
    assert.deepEqual(byId(fourth, FORK).tokens, { input: 600, output: 60, cacheRead: 0, cacheWrite: 0 }, 'and counts the copies it no longer shares with anyone');
  });

  it('a fork whose parent transcript is gone still names it and keeps its counts', async () => {
    const { home, source } = setup();
    writeTranscript(home, FORK, fork());
    const f = byId(await source.list(), FORK);
    assert.equal(f.forkedFrom, SID);
    assert.equal(f.costUsd, 0.1125);
  });

  it('unrelated sessions are never compared, and a transcript that grows extends its ledger', async () => {
    const { home, source } = setup();
    writeTranscript(home, SID, parent(false));
    const file = writeTranscript(home, FORK, fork({ own: false }));
    let f = byId(await source.list(), FORK);
    assert.deepEqual(f.tokens, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, 'only copies so far');
    fs.appendFileSync(file, fork().slice(5).map((l) => l + '\n').join(''));
    f = byId(await source.list(), FORK);
    assert.equal(f.costUsd, 0.024);
    assert.deepEqual(f.tokens, { input: 300, output: 30, cacheRead: 0, cacheWrite: 0 });
  });

  it('copies of a model named __proto__ are shared under that name and pollute nothing', async () => {
    const { home, source } = setup();
    const model = '__proto__';
    writeTranscript(home, SID, [userLine('first turn', { ts: t(0.2) }), assistantLine({ id: 'msg_1', requestId: 'req_1', input: 100, output: 10, ts: t(0.4), model })]);
    writeTranscript(home, FORK, [
      userLine('first turn', { ts: t(0.2), sessionId: FORK }),
      assistantLine({ id: 'msg_1', requestId: 'req_1', input: 100, output: 10, ts: t(0.4), sessionId: FORK, requestSessionId: SID, model }),
      userLine('fork turn', { ts: t(3), sessionId: FORK }),
      assistantLine({ id: 'msg_3', requestId: 'req_3', input: 300, output: 30, ts: t(3.2), sessionId: FORK, model }),
    ]);
    const f = byId(await source.list(), FORK);
    assert.equal(f.forkedFrom, SID);
    assert.deepEqual(f.tokens, { input: 300, output: 30, cacheRead: 0, cacheWrite: 0 });
    assert.equal(({} as Record<string, unknown>).input, undefined, 'Object.prototype is untouched');
  });
});
