import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync, utimesSync, statSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { applyRolloutRecord, emptyRolloutSummary, rolloutIgnore, threadIdFromRolloutName, titleFromPrompt, tokensFromUsage } from './rollout.ts';
import { readRollout } from './rollout-file.ts';
import type { ReadCounters } from './rollout-file.ts';
import { TID, TURN, execRollout, modelSwitchRollout, rec, writeRollout } from './rollout-fixtures.test-support.ts';

const counters = (): ReadCounters => ({ filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] });
const home = mkdtempSync(join(tmpdir(), 'muster-codex-rollout-'));
after(() => rmSync(home, { recursive: true, force: true }));

describe('rollout parser', () => {
  it('summarises a one-turn exec rollout: id, cwd, model, branch, prompt, tokens, turn', () => {
    const path = writeRollout(home, TID, execRollout());
    const s = readRollout(path, createMemoryTranscriptIndex(), counters());
    assert.ok(s);
    assert.equal(s.id, TID);
    assert.equal(s.cwd, '/home/dev/project');
    assert.equal(s.model, 'fake-model');
    assert.equal(s.branch, 'master');
    assert.equal(s.source, 'exec');
    assert.equal(s.firstPrompt, 'say hi');
    assert.deepEqual(s.tokens, { input: 103, output: 7, cacheRead: 0, cacheWrite: 0 });
    assert.equal(s.turn.state, 'complete');
    assert.equal(s.turn.id, TURN);
    assert.equal(s.lastAgentMessage, 'hi from fake model');
    assert.ok(s.lastActivityAt && s.startedAt && s.lastActivityAt > s.startedAt);
  });

  it('does not JSON.parse snapshots, full messages, tool outputs or command items', () => {
    // Each ignored kind is followed by garbage after its head: parsing it would count a skipped line.
    const garbage = (l: string): string => l.slice(0, 700) + '<<not json';
    const lines = [rec.meta(), rec.taskStarted(), garbage(rec.worldState()), garbage(rec.developer()), garbage(rec.commandItem()), rec.functionCall('call_A'), garbage(rec.functionOutput('call_A'))];
    const c = counters();
    const s = readRollout(writeRollout(home, '01a22b39-0000-7000-8000-000000000001', lines), createMemoryTranscriptIndex(), c);
    assert.ok(s);
    assert.equal(c.linesSkipped, 0);
    assert.deepEqual(s.pending, {}, 'the output closed the call through its head');
  });

  it('keeps a tool call without output pending, with its namespaced name', () => {
    const s = emptyRolloutSummary();
    for (const l of [rec.meta(), rec.taskStarted(), rec.functionCall('call_B', 'harness_status', 'mcp__harness')]) applyRolloutRecord(s, JSON.parse(l));
    assert.equal(s.turn.state, 'running');
    assert.equal(s.pending.call_B?.name, 'mcp__harness__harness_status');
    applyRolloutRecord(s, JSON.parse(rec.turnAborted()));
    assert.equal(s.turn.state, 'aborted');
    assert.deepEqual(s.pending, {});
  });

  it('ignore() only takes known bulky heads and records their timestamp', () => {
    const s = emptyRolloutSummary();
    const ig = rolloutIgnore(s);
    assert.equal(ig(rec.taskStarted()), false);
    assert.equal(ig(rec.meta().slice(0, 640)), false);
    assert.equal(ig(rec.userItem('first').slice(0, 640)), false, 'first prompt still wanted');
    s.firstPrompt = 'first';
    assert.equal(ig(rec.userItem('second').slice(0, 640)), true, 'discovery needs only the first prompt');
    assert.equal(ig(rec.agentItem('reply').slice(0, 640)), true);
    assert.equal(ig(rec.commandItem().slice(0, 640)), true);
    const forSearch = rolloutIgnore(s, { messages: true });
    assert.equal(forSearch(rec.userItem('second').slice(0, 640)), false, 'search reads every prompt');
    assert.equal(forSearch(rec.agentItem('reply').slice(0, 640)), false, 'and every reply');
    assert.equal(forSearch(rec.commandItem().slice(0, 640)), true);
    assert.ok(s.lastActivityAt);
    assert.equal(ig('{"weird":true}'), false);
  });

  it('skips and counts malformed and binary lines; a truncated last line waits for its newline', () => {
    const id = '01a22b39-0000-7000-8000-000000000002';
    const lines = [rec.meta(id), '{not json', '\u0000\u0001binary', rec.taskStarted(), rec.tokenCount(50, 5)];
    const path = writeRollout(home, id, lines, { trailingNewline: false });
    const index = createMemoryTranscriptIndex();
    const c = counters();
    const s1 = readRollout(path, index, c);
    assert.ok(s1);
    assert.equal(c.linesSkipped, 2);
    assert.deepEqual(s1.tokens.input, 0, 'the unterminated token_count line is not consumed yet');
    appendFileSync(path, '\n' + rec.taskComplete() + '\n');
    const s2 = readRollout(path, index, c);
    assert.ok(s2);
    assert.equal(s2.tokens.input, 50);
    assert.equal(s2.turn.state, 'complete');
  });

  it('reads only new bytes on a later pass, and restarts from 0 when the file shrank', () => {
    const id = '01a22b39-0000-7000-8000-000000000003';
    const path = writeRollout(home, id, execRollout(id));
    const index = createMemoryTranscriptIndex();
    const c = counters();
    readRollout(path, index, c);
    const firstOffset = index.get(path)?.offset ?? 0;
    assert.equal(firstOffset, statSync(path).size);
    const parsedBefore = c.linesParsed;
    readRollout(path, index, c);
    assert.equal(c.linesParsed, parsedBefore, 'unchanged file: nothing read');
    appendFileSync(path, [rec.taskStarted('t2'), rec.tokenCount(300, 20, 100)].join('\n') + '\n');
    const s = readRollout(path, index, c);
    assert.equal(c.linesParsed, parsedBefore + 2, 'only the two new lines');
    assert.equal(s?.turn.state, 'running');
    assert.deepEqual(s?.tokens, { input: 200, output: 20, cacheRead: 100, cacheWrite: 0 });
    writeFileSync(path, rec.meta(id, '/elsewhere') + '\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const s3 = readRollout(path, index, c);
    assert.equal(s3?.cwd, '/elsewhere');
    assert.equal(s3?.turn.state, 'none');
  });

  it('an unreadable path or a directory is counted, never thrown', () => {
    const c = counters();
    assert.equal(readRollout(join(home, 'missing.jsonl'), createMemoryTranscriptIndex(), c), null);
    const dir = join(home, 'rollout-dir.jsonl');
    mkdirSync(dir);
    assert.equal(readRollout(dir, createMemoryTranscriptIndex(), c), null);
    assert.equal(c.filesSkipped, 2);
  });

  it('a model switch on resume: tokens are kept per model in force for each turn, also across incremental reads', () => {
    const id = '01a22b39-0000-7000-8000-000000000005';
    const lines = modelSwitchRollout(id);
    const cut = lines.findIndex((l) => l.includes('"thread_settings_applied"') && l.includes('gpt-5-mini'));
    const path = writeRollout(home, id, lines.slice(0, cut));
    const index = createMemoryTranscriptIndex();
    assert.deepEqual(readRollout(path, index, counters())?.byModel, { 'gpt-5-codex': { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 } });
    appendFileSync(path, lines.slice(cut).join('\n') + '\n');
    const s = readRollout(path, index, counters());
    assert.ok(s);
    assert.equal(s.model, 'gpt-5-mini');
    assert.deepEqual(s.tokens, { input: 200, output: 20, cacheRead: 0, cacheWrite: 0 });
    assert.deepEqual(s.byModel, {
      'gpt-5-codex': { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 },
      'gpt-5-mini': { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 },
    });
  });

  it('a running total that goes back starts a new count instead of losing tokens', () => {
    const s = emptyRolloutSummary();
    for (const l of [rec.meta(), rec.turnContext('gpt-5'), rec.tokenCount(300, 30), rec.tokenCount(50, 5)]) applyRolloutRecord(s, JSON.parse(l));
    assert.deepEqual(s.byModel['gpt-5'], { input: 350, output: 35, cacheRead: 0, cacheWrite: 0 });
  });

  it('a stale or foreign index entry is ignored and the file re-read', () => {
    const id = '01a22b39-0000-7000-8000-000000000004';
    const path = writeRollout(home, id, execRollout(id));
    const index = createMemoryTranscriptIndex();
    const st = statSync(path);
    index.put({ path, harness: 'codex', size: st.size, mtimeMs: st.mtimeMs, offset: st.size, summary: { junk: true } });
    assert.equal(readRollout(path, index, counters())?.id, id);
  });
});

describe('rollout helpers', () => {
  it('thread id from a rollout name', () => {
    assert.equal(threadIdFromRolloutName(`rollout-2026-11-30T06-52-03-${TID}.jsonl`), TID);
    assert.equal(threadIdFromRolloutName('rollout-2026.jsonl'), null);
    assert.equal(threadIdFromRolloutName(`x-${TID}.jsonl`), null);
  });
  it('tokens from usage subtract cached reads and cache writes from input', () => {
    assert.deepEqual(tokensFromUsage({ input_tokens: 10, cached_input_tokens: 4, output_tokens: 3, cache_write_input_tokens: 1 }), { input: 5, output: 3, cacheRead: 4, cacheWrite: 1 });
    assert.equal(tokensFromUsage(null), null);
  });
  it('title from the first prompt line, cut', () => {
    assert.equal(titleFromPrompt('  fix it\nplease'), 'fix it');
    assert.equal(titleFromPrompt('x'.repeat(300)).length, 120);
    assert.equal(titleFromPrompt(null), '');
  });
});
