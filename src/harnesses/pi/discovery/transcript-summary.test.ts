import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyRecord, applyToolResult, emptySummary, toolResultFromHead } from './transcript-summary.ts';
import type { TranscriptSummary } from './transcript-summary.ts';
import { assistant, header, ompExit, ompModelChange, ompTitle, ompTitleChange, piModelChange, sessionInfo, toolResult, user } from './fixture-records.test-support.ts';

const ID = '01a22b3e-7108-72cf-96ba-1191d1508086';
const fold = (records: object[]): TranscriptSummary => records.reduce<TranscriptSummary>((s, r) => applyRecord(s, r), emptySummary());

describe('pi transcript summary', () => {
  it('takes id, cwd, model, tokens, cost, title and tool calls from pi records', () => {
    const s = fold([
      header(ID.toUpperCase(), '/home/dev/project pi', '2026-11-30T06:57:22.185Z'),
      piModelChange('fake-model', '2026-11-30T06:57:22.199Z'),
      user('TOOL_BASH   please\nnow', '2026-11-30T06:57:22.245Z'),
      assistant({ ts: '2026-11-30T06:57:22.372Z', calls: [{ id: 'call_1', name: 'bash', arguments: { command: 'echo hi' } }], usage: { input: 618, output: 5, cacheRead: 3, cacheWrite: 1 }, cost: 0.25 }),
      toolResult('call_1', 'hi\n', '2026-11-30T06:57:22.408Z'),
      assistant({ ts: '2026-11-30T06:57:22.423Z', text: 'tool done', usage: { input: 685, output: 5 }, cost: 0.5 }),
      sessionInfo('rpc-demo', '2026-11-30T06:57:22.429Z'),
    ]);
    assert.equal(s.id, ID, 'id lower-cased');
    assert.equal(s.cwd, '/home/dev/project pi');
    assert.equal(s.model, 'fake-model');
    assert.deepEqual(s.tokens, { input: 1303, output: 10, cacheRead: 3, cacheWrite: 1 });
    assert.equal(s.costUsd, 0.75);
    assert.equal(s.title, 'rpc-demo');
    assert.equal(s.firstPrompt, 'TOOL_BASH please now');
    assert.equal(s.toolCalls, 1);
    assert.equal(s.messages, 3, "user and assistant messages");
    assert.deepEqual(s.pending, []);
    assert.equal(s.last.kind, 'assistant');
    assert.equal(s.last.stopReason, 'stop');
    assert.equal(s.turnSince, null);
    assert.equal(s.startedAt, '2026-11-30T06:57:22.185Z');
    assert.equal(s.lastActivityAt, '2026-11-30T06:57:22.429Z');
  });

  it('cost is null when no record carries one (pricing decides later)', () => {
    const s = fold([header(ID, '/p', '2026-11-30T06:57:22.185Z'), user('hi', '2026-11-30T06:57:23.000Z'), assistant({ ts: '2026-11-30T06:57:24.000Z', text: 'x', cost: null })]);
    assert.equal(s.costUsd, null);
    assert.equal(s.tokens.input, 10);
  });

  it('keeps a pending tool call, with the question of omp ask', () => {
    const s = fold([
      header(ID, '/p', '2026-11-30T06:57:22.185Z'),
      user('go', '2026-11-30T06:57:23.000Z'),
      assistant({ ts: '2026-11-30T06:57:24.000Z', calls: [{ id: 'c1', name: 'ask', arguments: { question: 'Which   branch?' } }] }),
    ]);
    assert.deepEqual(s.pending, [{ id: 'c1', name: 'ask', detail: 'Which branch?' }]);
    assert.equal(s.turnSince, '2026-11-30T06:57:23.000Z');
    applyToolResult(s, 'c1', '2026-11-30T06:57:30.000Z');
    assert.deepEqual(s.pending, []);
    assert.equal(s.last.kind, 'toolResult');
    assert.equal(s.lastActivityAt, '2026-11-30T06:57:30.000Z');
  });

  it('tolerates records of the wrong shape without throwing', () => {
    const s = fold([null as unknown as object, [] as unknown as object, { type: 'message', message: 'x' }, { type: 'session', id: 'not-a-uuid', timestamp: 'garbage' },
      { type: 'message', timestamp: '2026-11-30T06:57:24.000Z', message: { role: 'assistant', usage: { input: -5, output: 'many', cost: { total: 'free' } } } }]);
    assert.equal(s.id, null);
    assert.deepEqual(s.tokens, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    assert.equal(s.costUsd, null);
    assert.equal(s.messages, 1);
  });
});

describe('omp transcript summary', () => {
  it('reads the padded title line, title_change, the provider/model form and session_exit records', () => {
    const s = fold([
      ompTitle('', '2026-11-30T06:58:03.928Z'),
      header(ID, '/home/dev/project-omp', '2026-11-30T06:58:03.928Z'),
      ompModelChange('fakeoai/fake-model', '2026-11-30T06:58:04.055Z'),
      user('say hi', '2026-11-30T06:58:05.041Z'),
      assistant({ ts: '2026-11-30T06:58:05.153Z', text: 'hi', model: 'fake-model' }),
      ompExit('2026-11-30T06:58:05.177Z'),
      user('resumed', '2026-11-30T06:59:44.773Z'),
      assistant({ ts: '2026-11-30T06:59:44.812Z', text: 'hi' }),
      ompTitleChange('renamed', '2026-11-30T06:59:45.000Z'),
      ompExit('2026-11-30T06:59:46.828Z', 'sigterm', 'signal'),
    ]);
    assert.equal(s.title, 'renamed');
    assert.equal(s.model, 'fake-model');
    assert.equal(s.exits, 2);
    assert.deepEqual(s.lastExit, { reason: 'sigterm', kind: 'signal', at: '2026-11-30T06:59:46.828Z' });
    assert.equal(s.last.kind, 'exit');
    assert.equal(s.firstPrompt, 'say hi');
  });

  it('an empty title line does not hide a later title, and model_change alone gives the model', () => {
    const s = fold([ompTitle('', '2026-11-30T06:58:03.928Z'), header(ID, '/p', '2026-11-30T06:58:03.928Z'), ompModelChange('prov/org/model-x', '2026-11-30T06:58:04.055Z')]);
    assert.equal(s.title, null);
    assert.equal(s.model, 'org/model-x');
  });
});

describe('toolResultFromHead', () => {
  it('recognises the head of a tool-result line as pi and omp write it', () => {
    const line = JSON.stringify(toolResult('call_fake8', 'x'.repeat(10_000), '2026-11-30T06:57:22.408Z'));
    assert.deepEqual(toolResultFromHead(line.slice(0, 512)), { toolCallId: 'call_fake8', at: '2026-11-30T06:57:22.408Z' });
  });
  it('ignores other records, even ones mentioning toolResult later', () => {
    assert.equal(toolResultFromHead(JSON.stringify(user('"role":"toolResult"', '2026-11-30T06:57:22.408Z'))), undefined);
    assert.equal(toolResultFromHead(JSON.stringify(assistant({ ts: '2026-11-30T06:57:22.408Z', text: 'x' }))), undefined);
  });
});
