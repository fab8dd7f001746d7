import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { applyRolloutRecord, emptyRolloutSummary, rolloutIgnore } from './rollout.ts';
import type { RolloutSummary } from './rollout.ts';
import { HEAD_BYTES, foldRolloutFile, ignoreRolloutLine } from './rollout-lines.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';
import { execRollout, modelSwitchRollout, rec } from './rollout-fixtures.test-support.ts';
import { createRng } from '../../seeded-rng.test-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-rollout-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** The reference: the head filter on the decoded head, every other line parsed whole. */
function wholeParse(file: string): { s: RolloutSummary; skipped: number; usage: UsageRecord[] } {
  const s = emptyRolloutSummary();
  const usage: UsageRecord[] = [];
  const sink = { sessionId: 't', emit: (u: UsageRecord) => void usage.push(u) };
  const r = readJsonlFrom(file, 0, (rec) => void applyRolloutRecord(s, rec, sink), { ignore: rolloutIgnore(s), headBytes: HEAD_BYTES, maxLineBytes: 4 * 1024 * 1024 });
  s.records += r.linesIgnored;
  return { s, skipped: r.linesSkipped, usage };
}

function assertSame(lines: string[]): void {
  const file = join(dir, `r${n++}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const a = wholeParse(file);
  const s = emptyRolloutSummary();
  const usage: UsageRecord[] = [];
  const b = foldRolloutFile(file, 0, s, 4 * 1024 * 1024, { sessionId: 't', emit: (u) => void usage.push(u) });
  assert.deepEqual(s, a.s);
  assert.equal(b.linesSkipped, a.skipped);
  assert.deepEqual(usage, a.usage, 'the same usage records, in the same order');
  const firstPass = emptyRolloutSummary();
  foldRolloutFile(file, 0, firstPass, 4 * 1024 * 1024);
  assert.deepEqual(firstPass, a.s, 'the same summary without a usage sink');
}

test('the byte fold gives the summary the decoded-head filter and a whole parse give, on the fixture rollouts', () => {
  assertSame(execRollout());
  assertSame(modelSwitchRollout());
  assertSame([rec.meta(), rec.taskStarted(), rec.functionCall('call_A'), rec.functionCall('call_B'), rec.functionOutput('call_A', 50_000), rec.tokenCount(10, 2)]);
});

test('a large session_meta read through its skeleton, a long agent message and torn lines agree with a whole parse', () => {
  const meta = rec.meta();
  const longBranch = rec.meta(undefined, '/home/dev/p', 'cli', 'b'.repeat(400));
  assertSame([
    meta, longBranch, rec.taskStarted(), rec.userItem('x'.repeat(20_000)), rec.taskComplete('m'.repeat(30_000)),
    meta.slice(0, 9000), `${meta.slice(0, 9000)}${meta}`, rec.worldState().slice(0, 700), JSON.stringify({ timestamp: 't', type: 'x', payload: { big: 'q'.repeat(9000) } }),
  ]);
});

test('token lines in a layout other than the one read without a parse agree with a whole parse', () => {
  const count = (info: string): string => `{"timestamp":"2026-11-30T06:52:04.000Z","type":"event_msg","payload":{"type":"token_count","info":${info},"rate_limits":null}}`;
  const record = (fields: string): string => `{"timestamp":"2026-11-30T06:52:05.000Z","type":"token_usage_record","payload":{"thread_id":"t",${fields}}}`;
  const u = (i: number, extra = ''): string => `{"input_tokens":${i},"cached_input_tokens":1,"output_tokens":2,"reasoning_output_tokens":1${extra}}`;
  assertSame([
    rec.meta(), rec.turnContext('m1'), rec.tokenCount(10, 2), rec.usageRecord(5, 1, 0, { input_tokens: 30, output_tokens: 3 }),
    count('null'), count(`{"total_token_usage":${u(40)}}`), count(`{"last_token_usage":${u(1)},"total_token_usage":${u(41)}}`),
    count(`{"total_token_usage":${u(42, ',"detail":{"x":1}')},"last_token_usage":${u(1)}}`),
    count(`{"total_token_usage":${u(43, ',"note":"}"')},"last_token_usage":${u(1)}}`),
    count(`{"total_token_usage": ${u(44)},"last_token_usage":${u(1)}}`),
    count(`{"total_token_usage":{"input_tokens":45.5,"input_tokens":46,"output_tokens":-1,"cached_input_tokens":"7"},"last_token_usage":${u(1)}}`),
    count(`{"total_token_usage":${u(47)},"last_token_usage":{"input_tokens":1,"output_tokens":[1]}}`),
    count(`{"total_token_usage":{"input_tokens":48,"é":1},"last_token_usage":${u(1)}}`),
    count(`{"total_token_usage":{"input_tokens":49,oops},"last_token_usage":${u(1)}}`),
    record(`"usage":${u(3)},"turn_token_usage":${u(3)},"thread_token_usage":${u(50)}`),
    record(`"usage":${u(3)},"turn_token_usage":${u(3)},"thread_token_usage":${u(51)},"extra":1`),
    record(`"usage":${u(3)},"thread_token_usage":${u(52)}`),
    record(`"usage":${u(3, ',"n":{"a":1}')},"turn_token_usage":${u(3)},"thread_token_usage":${u(53)}`),
    record(`"usage":${u(3)},"turn_token_usage":${u(3)},"thread_token_usage":{"input_tokens":1e2}`),
    record(`"usage":${u(3)},"turn_token_usage":${u(3)},"thread_token_usage":${u(55)}} `),
    rec.turnContext('m2'), rec.tokenCount(60, 5), rec.tokenCount(20, 1),
  ]);
});

test('a token line is read from its counts only: a malformed tail after them does not lose its total', () => {
  const file = join(dir, `r${n++}.jsonl`);
  const total = '{"input_tokens":70,"cached_input_tokens":20,"output_tokens":9}';
  writeFileSync(file, [
    rec.meta(), rec.turnContext('m'),
    `{"timestamp":"2027-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":${total},"last_token_usage":${total},"rate_limits":{oops}}}`,
  ].join('\n') + '\n');
  const s = emptyRolloutSummary();
  const r = foldRolloutFile(file, 0, s, 4 * 1024 * 1024);
  assert.deepEqual(s.tokens, { input: 50, output: 9, cacheRead: 20, cacheWrite: 0 });
  assert.deepEqual(s.byModel, { m: { input: 50, output: 9, cacheRead: 20, cacheWrite: 0 } });
  assert.equal(s.lastActivityAt, '2027-01-01T00:00:00.000Z');
  assert.equal(r.linesSkipped, 0, 'a whole parse would skip it');
});

test('the byte head filter agrees with the decoded one on every head, ids and times included', () => {
  const rng = createRng(3);
  const pieces = [
    '{"timestamp":"2026-11-30T06:52:03.600Z","ordinal":1', '{"timestamp":"', '{"timestamp":""', ',"type":"world_state","payload":', ',"type":"response_item","payload":{"type":"',
    'message"', 'reasoning"', '"payload":{"type":"function_call_output"', '"payload":{"type":"_call_output"', '"payload":{"type":"custom_tool_call_output"', '"payload":{"type":"Function_call_output"',
    '"call_id":"call_1"', '"call_id":""', '"call_id":"a\\"b"', '"call_id":"é✓"', ',"type":"event_msg","payload":{"type":"item_completed"', '"item":{"type":"UserMessage"',
    '"item":{"type":"CommandExecution"', '"item":{"type":""', '"item":{"type":"X1"', ',"type":"event_msg"', ',"type":"response_item","payload":{"type":"function_call"', 'zz', '"', '\\', 'x'.repeat(200),
  ];
  for (let i = 0; i < 20_000; i++) {
    let head = '';
    while (head.length < 300 + rng() * 500) head += pieces[Math.floor(rng() * pieces.length)];
    for (const firstPrompt of [null, 'p']) {
      const a = { ...emptyRolloutSummary(), firstPrompt, pending: { call_1: { name: 'x', at: null }, 'é✓': { name: 'y', at: null } } };
      const b = structuredClone(a);
      const bytes = Buffer.from(head);
      const expected = rolloutIgnore(a)(bytes.subarray(0, HEAD_BYTES).toString('utf8'));
      assert.equal(ignoreRolloutLine(b, bytes), expected, head);
      assert.deepEqual(b, a, head);
    }
  }
});
