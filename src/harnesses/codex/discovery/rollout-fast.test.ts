import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyRolloutSummary } from './rollout.ts';
import type { RolloutSummary } from './rollout.ts';
import { HEAD_BYTES, foldRolloutFile, foldRolloutLine } from './rollout-lines.ts';
import type { LineCounts } from './rollout-lines.ts';
import { foldRolloutFileFast } from './rollout-fast.ts';
import { createRng, execRollout, modelSwitchRollout, rec } from './rollout-fixtures.test-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-rollout-fast-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const MAX = 8 * 1024 * 1024;
const discard = { sessionId: 't', emit: () => undefined };

function write(lines: (string | Buffer)[], ending = '\n'): string {
  const file = join(dir, `r${n++}.jsonl`);
  writeFileSync(file, Buffer.concat(lines.map((l) => Buffer.concat([typeof l === 'string' ? Buffer.from(l) : l, Buffer.from(ending)]))));
  return file;
}

/** The first pass's fold (the WebAssembly loop) against the JavaScript fold of the same bytes (a sink sends it down the line-by-line path). */
function assertSame(file: string, from = 0, maxLine = MAX, before: RolloutSummary = emptyRolloutSummary()): void {
  const fast = structuredClone(before);
  const js = structuredClone(before);
  const a = foldRolloutFile(file, from, fast, maxLine);
  const b = foldRolloutFile(file, from, js, maxLine, discard);
  assert.deepEqual(fast, js);
  assert.deepEqual(a, b, 'the same offset and counts');
}

test('most lines stay in the WebAssembly loop: passed over, closing a call, a token line or a clean record', () => {
  const lines = [...execRollout(), rec.functionCall('call_A'), rec.functionOutput('call_A', 5000), rec.commandItem(), rec.turnAborted(), ...modelSwitchRollout().slice(1)];
  const file = write(lines);
  const s = emptyRolloutSummary();
  const counts: LineCounts = { linesParsed: 0, linesSkipped: 0, linesIgnored: 0 };
  const back: string[] = [];
  const offset = foldRolloutFileFast(file, 0, s, MAX, HEAD_BYTES, counts, {
    line: (sum, line, c) => {
      back.push(JSON.parse(line.toString()).type as string);
      foldRolloutLine(sum, line, c);
    },
    oversize: () => assert.fail('no line is over the limit'),
  });
  assert.notEqual(offset, undefined, 'WebAssembly is available in Node');
  // session_meta is not a fast type; the first prompt's item is read whole, the second's is passed over once it is known.
  assert.deepEqual(back, ['session_meta', 'event_msg']);
  assert.equal(s.records, lines.length);
  assertSame(file);
});

test('the first pass folds what the JavaScript fold folds, on the fixture rollouts, in CRLF, resumed and with oversize lines', () => {
  const lines = [...execRollout(), rec.functionCall('call_A'), rec.functionCall('call_B', 'shell', 'ns'), rec.functionOutput('call_A', 50_000), rec.tokenCount(10, 2), ...modelSwitchRollout()];
  for (const ending of ['\n', '\r\n']) {
    const file = write(lines, ending);
    assertSame(file);
    const text = readFileSync(file, 'latin1');
    const mid = text.indexOf('"function_call_output"');
    const from = text.lastIndexOf('\n', mid) + 1;
    const before = emptyRolloutSummary();
    foldRolloutFile(file, 0, before, MAX, discard); // the summary an index entry would hold (then read again from `from`)
    assertSame(file, from, MAX, before);
    assertSame(file, 0, 2048); // lines over 2 KiB are oversize: their heads still count
  }
  const torn = write(execRollout());
  appendFileSync(torn, rec.tokenCount(500, 50)); // no final newline: not consumed
  assertSame(torn);
});

test('odd lines fold as the JavaScript fold folds them: times, call ids, item types, token layouts, repeated keys', () => {
  const t = '{"timestamp":"2026-11-30T07:00:00.000Z"';
  const lines = [
    rec.meta(),
    `{"timestamp":"2026-11-30T08:00:00.000Z","type":"world_state","payload":{}}`,
    `{"timestamp":"2026-11-30T09:00:00.000Z\u00e9","type":"world_state","payload":{}}`, // not ASCII: the host compares it
    `{"timestamp":"","type":"world_state","payload":{}}`,
    `{"type":"world_state","timestamp":"2030-01-01T00:00:00.000Z","payload":{}}`, // no time in the head
    `${t},"type":"response_item","payload":{"type":"function_call_output","call_id":"a\\"b","output":"x"}}`,
    `${t},"type":"response_item","payload":{"type":"function_call","name":"n","call_id":"c\u00e9"}}`,
    `${t},"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c\u00e9","output":"x"}}`,
    `${t},"type":"response_item","payload":{"type":"function_call","name":"n","call_id":"d","call_id":"e","namespace":7}}`,
    `${t},"type":"response_item","payload":{"type":"function_call","name":"n","call_id":"f"},"payload":{"type":"message"}}`,
    `${t},"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"text":"first"}]}}}`,
    `${t},"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"text":"second"}]}}}`,
    `${t},"type":"event_msg","payload":{"type":"item_completed","item":{"type":"","content":[]}}}`,
    `${t},"type":"event_msg","payload":{"type":"task_started","turn_id":"T","turn_attribution":{"turn_trigger":"user"}}}`,
    `${t},"type":"event_msg","payload":{"type":"task_started","turn_id":"T2","turn_attribution":"nope"}}`,
    `${t},"type":"event_msg","payload":{"type":"thread_settings_applied","thread_settings":{"model":"m9","cwd":"/w"}}}`,
    `${t},"type":"event_msg","payload":{"type":"task_complete","turn_id":null,"last_agent_message":"done \\u0041"}}`,
    `${t},"type":"event_msg","payload":{"type":"token_count","info":null}}`,
    `${t},"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":9,"output_tokens":1},"last_token_usage":{"input_tokens":1}}}}`,
    `{"timestamp":"2026\\u002d11","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":10},"last_token_usage":{}}}}`,
    `{"timestamp":"x\\"y","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":11},"last_token_usage":{}}}}`,
    `${t},"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":"é"},"last_token_usage":{}}}}`,
    Buffer.concat([Buffer.from(`${t},"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":12,"x":"`), Buffer.from([0xe9]), Buffer.from('"},"last_token_usage":{}}}}')]),
    `${t},"type":"turn_context","payload":{"model":"m1","cwd":"/a","turn_id":"x"}}`,
    `${t},"type":"turn_context","payload":"not an object"}`,
    `${t},"type":"turn_context","payload":{"model":"m2"`, // torn
    `${t},"type":"mystery","payload":{"a":1}}`,
    `${t},"ty\\u0070e":"turn_context","type":"turn_context","payload":{"model":"m3"}}`,
    '',
    '  ',
  ];
  assertSame(write(lines));
  const s = emptyRolloutSummary();
  foldRolloutFile(write(lines), 0, s, MAX);
  assert.equal(s.firstPrompt, 'first');
  const calls = emptyRolloutSummary();
  foldRolloutFile(write(lines.slice(0, 10)), 0, calls, MAX);
  assert.deepEqual(Object.keys(calls.pending), ['e'], 'a call closed by its output (a non-ASCII id), repeated keys as a parse reads them');
  const times = emptyRolloutSummary();
  foldRolloutFile(write(lines.slice(1, 4)), 0, times, MAX);
  assert.equal(times.lastActivityAt, '2026-11-30T09:00:00.000Z\u00e9', 'the latest time of the lines passed over, a non-ASCII one compared by the host');
});

test('fuzz: rollouts of lines pieced from every head the fold reads fold alike', () => {
  const rng = createRng(11);
  const pieces = [
    '{"timestamp":"2026-11-30T06:52:03.600Z","ordinal":1', '{"timestamp":"2026-12-01T00:00:00.000Z"', '{"timestamp":"', '{"timestamp":""', ',"type":"world_state","payload":',
    ',"type":"response_item","payload":{"type":"', 'message"', 'reasoning"', 'function_call"', '"payload":{"type":"function_call_output"', '"payload":{"type":"custom_tool_call_output"',
    '"call_id":"call_1"', '"call_id":""', '"call_id":"a\\"b"', '"call_id":"é✓"', ',"type":"event_msg","payload":{"type":"item_completed"', '"item":{"type":"UserMessage"',
    '"item":{"type":"CommandExecution"', '"item":{"type":""', ',"type":"event_msg"', ',"type":"turn_context","payload":{"model":"m","cwd":"/c"}',
    ',"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":5,"output_tokens":2},"last_token_usage":{"input_tokens":1}}',
    ',"type":"token_usage_record","payload":{"usage":{"input_tokens":1},"turn_token_usage":{},"thread_token_usage":{"input_tokens":9}}', '}', '}}', ',"name":"x"',
    ',"payload":{"type":"task_started","turn_id":"t"}', '"', '\\', ',', 'x'.repeat(100),
  ];
  const lines: string[] = [];
  for (let i = 0; i < 6000; i++) {
    let line = '';
    while (line.length < 20 + rng() * 400) line += pieces[Math.floor(rng() * pieces.length)];
    lines.push(line);
  }
  // Whole records too, so the fold's state (the first prompt, pending calls, model) moves as the lines go.
  for (let i = 0; i < 1500; i++) lines.splice(Math.floor(rng() * lines.length), 0, [rec.functionCall(`call_${i % 3}`), rec.userItem(`p${i}`), rec.turnContext(`m${i % 4}`), rec.tokenCount(i, i % 7)][i % 4] as string);
  for (let k = 0; k < lines.length; k += 750) assertSame(write(lines.slice(k, k + 750)));
});
