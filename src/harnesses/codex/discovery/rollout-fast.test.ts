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
import { execRollout, modelSwitchRollout, rec } from './rollout-fixtures.test-support.ts';
import { createRng } from '../../seeded-rng.test-support.ts';

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

/** One random record of a turn: tool calls and their outputs (a few ids, so they repeat), turn events, tokens, and odd spellings of each. */
function randomTurnLine(rng: () => number, i: number): string {
  const id = `call_${Math.floor(rng() * 6)}`;
  const t = `{"timestamp":"2026-11-30T07:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00.000Z"`;
  const pick = Math.floor(rng() * 22);
  switch (pick) {
    case 0: case 1: case 2: case 3: return rec.functionCall(id, rng() < 0.2 ? 'shell' : 'exec_command', rng() < 0.2 ? 'ns' : undefined);
    case 4: case 5: case 6: case 7: return rec.functionOutput(id, 100);
    case 8: return rec.taskStarted(`T${i}`);
    case 9: return rec.taskComplete();
    case 10: return rec.turnAborted();
    case 11: return rec.tokenCount(i, i % 7);
    case 12: return rec.usageRecord(i, i % 5);
    case 13: return rec.turnContext(`m${i % 3}`);
    case 14: return `${t},"type":"response_item","payload":{"type":"custom_tool_call","name":"n","call_id":"${id}"}}`;
    case 15: return `${t},"type":"response_item","payload":{"call_id":"${id}","type":"function_call_output","output":"x"}}`; // an output read whole
    case 16: return `${t},"type":"response_item","payload":{"type":"function_call","name":"n","call_id":"call_\\u0031"}}`; // an escaped id
    case 17: return `{"timestamp":"2026-11-30T07:00:00.000Z\u00e9","type":"response_item","payload":{"type":"function_call","name":"n","call_id":"${id}"}}`; // a time the module does not compare
    case 18: return `${t},"type":"event_msg","payload":{"type":"task_st\\u0061rted","turn_id":"X"}}`; // a turn's start spelt with an escape
    case 19: return `${t},"type":"response_item","payload":{"type":"function_c\\u0061ll","name":"n","call_id":"${id}"}}`;
    case 20: return `${t},"type":"response_item","payload":{"type":"function_call","name":"n","call_id":"${id}"`; // torn
    default: return `${t},"type":"response_item","payload":{"type":"local_shell_call","call_id":"${id}","action":{"x":"${'y'.repeat(Math.floor(rng() * 3000))}"}}}`;
  }
}

test('token totals the module reads give the counts the parse gives; any other spelling is read by the host', () => {
  const totals = [
    '{"input_tokens":500,"cached_input_tokens":120,"output_tokens":30,"reasoning_output_tokens":4,"cache_write_input_tokens":7,"total_tokens":99999999999999999999}',
    '{"input_tokens":5,"output_tokens":2,"input_tokens":700}', // the last one wins
    '{"input_tokens":900,"output_tokens":-0,"cached_input_tokens":-5}',
    '{"input_tokens":950,"cached_input_tokens":1.5}',
    '{"input_tokens":1234567890123456}',
    '{"input_tokens":9999999999999999999999,"output_tokens":9007199254740993}', // digit by digit, the first would round otherwise
    '{"input_tokens":123456789012345,"output_tokens":1e3}',
    '{"in\\u0070ut_tokens":9}',
    '{ "input_tokens":9}',
    '{"input_tokens":"9"}',
    '{"input_tokens":90,"x":"\u00e9"}',
    '{"input_tokens":100,"x":[1]}',
    '{}',
    '{"input_tokens":0,"output_tokens":0}',
    '{"input_tokens":800,"cached_input_tokens":900,"cache_write_input_tokens":3}',
    '{"input_tokens":810,"output_tokens":012}',
    '{"input_tokens":820,"output_tokens":12,}',
  ];
  const lines = [rec.meta(), rec.taskStarted(), rec.userItem('go'), rec.turnContext('m1')];
  totals.forEach((total, i) => {
    const ts = `2026-11-30T07:00:${String(i).padStart(2, '0')}.000Z`;
    lines.push(`{"timestamp":"${ts}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":${total},"last_token_usage":{"input_tokens":1}}}}`);
    lines.push(`{"timestamp":"${ts}","type":"token_usage_record","payload":{"thread_id":"t","usage":{"input_tokens":1},"turn_token_usage":{},"thread_token_usage":${total}}}`);
    if (i === 7) lines.push(rec.turnContext('m2'));
  });
  assertSame(write(lines));
  assertSame(write([...lines].reverse()));
  const s = emptyRolloutSummary();
  foldRolloutFile(write(lines.slice(0, 5)), 0, s, MAX);
  assert.deepEqual(s.tokens, { input: 373, output: 30, cacheRead: 120, cacheWrite: 7 });
});

test('a token line read whole while calls are held: a record it hides comes after them', () => {
  const t = '"timestamp":"2026-11-30T07:00:00.000Z"';
  const hidden = ',"type":"response_item","payload":{"type":"function_call","name":"hidden","call_id":"x"}';
  const token = (head: string): string => `{${head}"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":5},"last_token_usage":{}}}${hidden}}`;
  for (const head of ['', '"timestamp":"2026-11-30T07:00:0\\u0031.000Z",', `${t},`]) {
    const lines = [rec.meta(), rec.taskStarted(), rec.userItem('go'), rec.functionCall('x'), rec.functionCall('y'), token(head), rec.turnContext('m')];
    assertSame(write(lines));
  }
});

test('a call repeated while held, then its output: the output closes the last one, as the fold keeps one entry per id', () => {
  const lines = [rec.meta(), rec.taskStarted(), rec.userItem('go'), rec.functionCall('x'), rec.functionCall('x', 'shell'), rec.functionOutput('x', 10), rec.turnContext('m')];
  const file = write(lines);
  assertSame(file);
  const s = emptyRolloutSummary();
  foldRolloutFile(file, 0, s, MAX);
  assert.deepEqual(s.pending, {});
  assert.equal(s.records, lines.length);
});

test('fuzz: tool calls the module pairs with their outputs fold alike: held, closed, cancelled by a turn event, handed over in order', () => {
  const rng = createRng(23);
  for (let k = 0; k < 120; k++) {
    const lines = [rec.meta(), rec.taskStarted(), rec.userItem('go'), ...Array.from({ length: 20 + Math.floor(rng() * 200) }, (_, i) => randomTurnLine(rng, i))];
    const file = write(lines, rng() < 0.2 ? '\r\n' : '\n');
    assertSame(file);
    if (k % 4 === 0) assertSame(file, 0, 2048); // long lines oversize: held calls are handed over first
    const text = readFileSync(file, 'latin1');
    const from = text.indexOf('\n', Math.floor(rng() * text.length)) + 1;
    if (from > 0) {
      const before = emptyRolloutSummary();
      foldRolloutFile(file, 0, before, MAX, discard); // a summary with the whole file's pending calls, read again from `from`
      assertSame(file, from, MAX, before);
    }
  }
});
