import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { assertFoldsAlike as assertSame, assistantLine, metaLine, MAX_LINE as MAX, toolResultLine, userLine, writeLines as write } from './claude-fixtures.test-support.ts';
import { createRng } from '../../seeded-rng.test-support.ts';
import { createTranscriptSummary } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import { foldTranscriptFile, foldTranscriptLine } from './transcript-lines.ts';
import type { LineCounts } from './transcript-lines.ts';
import { foldTranscriptFileFast } from './transcript-fast.ts';

const big = (n: number): string => `\t"quoted" \\back\\slash ${'code(é);\n'.repeat(Math.ceil(n / 10))}`.slice(0, n);

/** How many lines the WebAssembly loop gave back to the line-by-line fold, of `total`. */
function handedBack(file: string): { back: number; summary: TranscriptSummary } {
  const s = createTranscriptSummary();
  const counts: LineCounts = { linesParsed: 0, linesSkipped: 0, linesIgnored: 0 };
  let back = 0;
  const r = foldTranscriptFileFast(file, 0, s, MAX, 512, counts, {
    line: (sum, line, c) => {
      back++;
      foldTranscriptLine(sum, line, c);
    },
    oversize: () => assert.fail('no line is over the limit'),
  });
  assert.notEqual(r, undefined, 'WebAssembly is available in Node');
  return { back, summary: s };
}

test('most lines are folded from the WebAssembly loop: a user record only once the first prompt is known', () => {
  const file = write([
    toolResultLine(big(3000)), // before any prompt: read whole
    userLine('fix the build'),
    toolResultLine(big(3000)),
    assistantLine({ id: 'msg_1', requestId: 'req_1' }),
    assistantLine({ id: 'msg_1', requestId: 'req_1', output: 50 }),
    JSON.stringify({ parentUuid: 'a', isSidechain: false, type: 'system', subtype: 'x', timestamp: '2026-11-30T07:00:00.000Z', cwd: '/w', sessionId: 's' }),
    metaLine('cost-state', { totalCostUSD: 0.5, startTime: 1 }), // applied from its fields
    JSON.stringify({ type: 'api-request', body: big(2000) }), // passed over by its head
  ]);
  const { back, summary } = handedBack(file);
  assert.equal(back, 2, 'the two user records before and at the first prompt');
  assert.equal(summary.records, 8);
  assertSame(file);
});

test('the first pass folds what the JavaScript fold folds: tokens, repeats, cost, times, cwd, branch, titles, PR links', () => {
  const long = big(300_000);
  const link = 'https://github.com/acme/app/pull/42';
  const file = write([
    userLine('fix the build', { ts: '2026-11-30T06:52:53.501Z' }),
    toolResultLine(long, { ts: '2026-11-30T06:53:04.614Z', cwd: '/home/dev/other', branch: 'feature/x' }),
    assistantLine({ id: 'msg_1', input: 3000, output: 20, cacheRead: 12000, ts: '2026-11-30T06:53:05.000Z', requestId: 'req_1' }),
    assistantLine({ id: 'msg_1', input: 3000, output: 70, cacheRead: 12000, ts: '2026-11-30T06:53:05.500Z', requestId: 'req_1', content: 'tool_use' }),
    assistantLine({ id: 'msg_2', model: '<synthetic>', output: 5 }),
    assistantLine({ id: 'msg_3', model: 'claude-opus-4-1', requestSessionId: 'parent-session', cwd: '', branch: '' }),
    metaLine('cost-state', { totalCostUSD: 0.5, startTime: 1 }),
    toolResultLine(`created ${link} ${long}`), // a link in a tool result: read whole
    toolResultLine(`see ${link.replace('42', '43')}`).replace('github.com', 'github\\u002ecom'), // spelt with an escape
    JSON.stringify({ ...JSON.parse(toolResultLine('x')), toolUseResult: { stdout: link.replace('42', '44') } }), // only in the copy
    toolResultLine(big(5000), { ts: '2026-11-30T07:01:00Z' }), // not canonical
    toolResultLine(big(5000), { ts: '2026-02-30T07:01:00.000Z' }),
    metaLine('custom-title', { customTitle: 'title' }),
    metaLine('last-prompt', { lastPrompt: 'last' }),
    JSON.stringify({ type: 'pr-link', prUrl: link.replace('42', '45') }),
  ]);
  assertSame(file);
  const s = createTranscriptSummary();
  foldTranscriptFile(file, 0, s, MAX);
  assert.deepEqual(s.prLinks, [link, link.replace('42', '43'), link.replace('42', '45')]);
  assert.equal(s.copiedFrom, 'parent-session');
});

test('prompt and cost records fold as the JavaScript fold folds them: blank prompts, odd totals and start times, the uncosted tokens', () => {
  const usage = (id: string): string => assistantLine({ id, input: 1000, output: 100 });
  const cost = (total: string, start = '1'): string => `{"type":"cost-state","totalCostUSD":${total},"startTime":${start},"sessionId":"s","timestamp":"2026-11-30T08:00:00.000Z"}`;
  const prompt = (text: string): string => `{"type":"last-prompt","lastPrompt":${text},"sessionId":"s"}`;
  const lines = [
    userLine('go'), usage('m1'), cost('0.25'), usage('m2'),
    cost('-1'), usage('m3'), cost('-0'), usage('m4'), cost('1e2'), usage('m5'), cost('0.5', '2'), cost('0.75', '-3'), usage('m6'),
    cost('0.1', '"x"'), cost('"0.9"'), cost('1.5', '1e999'), cost(`0.${'1'.repeat(40)}`), usage('m7'),
    prompt('"  first   prompt "'), prompt('"  "'), prompt('"\u3000"'), prompt('"\\n"'), prompt('"caf\u00e9"'), prompt('7'), prompt('"a\\tb"'),
  ];
  const file = write(lines);
  assertSame(file);
  for (let i = 1; i < lines.length; i++) assertSame(write([...lines.slice(0, i), ...lines.slice(i).reverse()]));
  const s = createTranscriptSummary();
  foldTranscriptFile(file, 0, s, MAX);
  assert.equal(s.lastPrompt, 'a b');
  assert.deepEqual(Object.keys(s.usage.costGroups).sort(), ['-3', '1', '2', 'unknown']);
});

test('odd records fold as the JavaScript fold folds them', () => {
  const a = JSON.parse(assistantLine({ id: 'msg_9', input: 7, output: 3 })) as Record<string, unknown>;
  const message = a.message as Record<string, unknown>;
  const lines = [
    userLine('go'),
    JSON.stringify({ ...a, message: { ...message, usage: { input_tokens: 1.5e3, output_tokens: -2, cache_read_input_tokens: '9', cache_creation_input_tokens: null } } }),
    JSON.stringify({ ...a, message: [message] }), // not an object
    JSON.stringify({ ...a, message: { ...message, usage: [1, 2] } }),
    JSON.stringify({ ...a, message: { ...message, id: 7, model: null } }),
    `{"type":"assistant","message":{"id":"m","usage":{"input_tokens":5}},"message":{"model":"m2"},"timestamp":"2026-11-30T08:00:00.000Z"}`, // the last message wins
    `{"type":"assistant","t\\u0079pe":"user","message":{"id":"m3","usage":{"input_tokens":5}}}`, // a key spelt with an escape
    JSON.stringify({ ...a, sessionId: '', cwd: 5, gitBranch: { name: 'x' }, timestamp: 17 }),
    JSON.stringify({ ...a, sessionId: 'caf\u00e9 "q"', cwd: '/h\u00e9/\\x', requestId: 'r\u0001' }),
    JSON.stringify({ ...a, type: 'system' }).replace('{', '{"type":"user",'), // a repeated type: the last one
    '{"type":"assistant"', // torn
    Buffer.concat([Buffer.from(userLine('x').slice(0, 40)), Buffer.from([0xff]), Buffer.from(userLine('x').slice(40))]),
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(assistantLine({ id: 'msg_bom' }))]),
    `   ${assistantLine({ id: 'msg_ws' })}  `,
    '',
    '   ',
    JSON.stringify({ parentUuid: 'u', isSidechain: true, attachment: { content: big(3000) }, type: 'attachment' }),
    JSON.stringify({ note: 'no type' }),
  ];
  assertSame(write(lines));
  assertSame(write(lines, '\r\n'));
});

test('a resumed read, a final line without its newline, oversize lines and lines longer than the chunk fold alike', () => {
  const huge = toolResultLine('z'.repeat(5 * 1024 * 1024), { ts: '2026-11-30T09:00:00.000Z' });
  const lines = [userLine('start'), assistantLine({ id: 'm1' }), toolResultLine(big(3000)), huge, assistantLine({ id: 'm2', output: 99 }), JSON.stringify({ type: 'api-request-blob', blob: big(9000) })];
  const file = write(lines);
  fs.appendFileSync(file, assistantLine({ id: 'unfinished' }));
  const text = fs.readFileSync(file, 'latin1');
  for (const from of [0, text.indexOf('{', 1), text.indexOf(huge.slice(0, 30)), text.length]) {
    assertSame(file, from);
    assertSame(file, from, 2048); // lines over 2 KiB are oversize: an ignored head still counts
  }
});

test('without WebAssembly (node --jitless) the JavaScript fold reads everything, to the same summary', () => {
  const file = write([userLine('go'), assistantLine({ id: 'm1', output: 12 }), toolResultLine(big(3000)), JSON.stringify({ type: 'api-request', body: 'x' })]);
  const here = createTranscriptSummary();
  const r = foldTranscriptFile(file, 0, here, MAX);
  const script = `import { foldTranscriptFile } from ${JSON.stringify(new URL('./transcript-lines.ts', import.meta.url).href)};
import { createTranscriptSummary } from ${JSON.stringify(new URL('./transcript.ts', import.meta.url).href)};
const s = createTranscriptSummary();
const r = foldTranscriptFile(${JSON.stringify(file)}, 0, s, ${MAX});
console.log(JSON.stringify({ wasm: typeof WebAssembly, s, r }));`;
  const out = execFileSync(process.execPath, ['--jitless', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  const there = JSON.parse(out.trim().split('\n').at(-1) as string) as { wasm: string; s: TranscriptSummary; r: unknown };
  assert.equal(there.wasm, 'undefined');
  assert.deepEqual(there.s, here);
  assert.deepEqual(there.r, r);
});

/**
 * One random record of the kinds the module folds, with the odd fields it must give back or fold alike;
 * a wide file's have plain fields, 30 models (the module's table holds 16 at once) and 300 message ids (it
 * remembers 64).
 */
function randomRecord(rnd: () => number, day: number, wide: boolean): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  // A wide file's fields are all plain, so the module folds runs of records long enough to fill its tables.
  const often = <T>(usual: T, odd: readonly unknown[]): unknown => (wide || rnd() < 0.8 ? usual : pick(odd));
  const ts = often(`2026-11-${String(day).padStart(2, '0')}T${String(Math.floor(rnd() * 24)).padStart(2, '0')}:${String(Math.floor(rnd() * 60)).padStart(2, '0')}:07.${String(Math.floor(rnd() * 1000)).padStart(3, '0')}Z`,
    ['2026-11-30T07:01:00Z', '2026-02-30T07:01:00.000Z', '2026-11-30T24:00:00.000Z', 17, null, undefined, 'x'.repeat(41), 'not a time']);
  const count = (): unknown => often(Math.floor(rnd() * 5000), [0, -3, 1.5, 1e3, 123456789012345, 1234567890123456, '7', null, undefined, -0]);
  const conversation = {
    timestamp: ts,
    sessionId: often('s-1', ['s-2', '', 5, undefined, 'caf\u00e9', 'q"uote']),
    cwd: often('/home/dev/p', ['', '/home/dev/q', 7, undefined, '/h\u00e9', `/${'d'.repeat(5000)}`, 'back\\slash']),
    gitBranch: often('main', ['', 'feature/x', null, 'br\u00e4nch']),
  };
  const kind = rnd();
  if (kind < 0.5) {
    const model = wide ? `model-${Math.floor(rnd() * 30)}` : often('claude-sonnet-4-5', ['claude-opus-4-1', '<synthetic>', '', null, undefined, 'mod\u00e8le', 'm'.repeat(200), 'tab\tmodel',
      ...Array.from({ length: 20 }, (_, i) => `model-${i}`)]);
    const usage = often({ input_tokens: count(), output_tokens: count(), cache_read_input_tokens: count(), cache_creation_input_tokens: count() }, [[1, 2], null, 'u', undefined]);
    const message = often({ id: often(`msg_${Math.floor(rnd() * (wide ? 300 : 90))}`, ['', 7, null, undefined, `msg_${'x'.repeat(200)}`, 'msg_\u00e9']), model, usage }, [[1], null, 'm', undefined]);
    return JSON.stringify({ parentUuid: 'p', isSidechain: false, type: 'assistant', message, requestId: often(`req_${Math.floor(rnd() * 5)}`, ['', 3, undefined]),
      requestSessionId: often(undefined, ['s-1', 's-0', '', 9]), ...conversation });
  }
  if (kind < 0.6) return JSON.stringify({ parentUuid: 'p', isSidechain: false, type: 'system', subtype: 'x', ...conversation });
  if (kind < 0.78) {
    const text = pick(['ok', 'see https://github.com/acme/app/pull/7', 'caf\u00e9 \u0001', 'x'.repeat(3000), 'escaped \\u0041']);
    return pick([userLine(text, { ts: typeof ts === 'string' ? ts : undefined }), toolResultLine(text)]);
  }
  if (kind < 0.86) return metaLine('cost-state', { totalCostUSD: often(rnd(), [-1, null, '0.5', 1e300, 0]), startTime: often(Math.floor(rnd() * 3), [null, 'x']), timestamp: ts });
  if (kind < 0.92) return metaLine('last-prompt', { lastPrompt: often(`prompt ${Math.floor(rnd() * 9)}`, ['  ', '', 5, 'p\u00e9\n2']), timestamp: ts });
  if (kind < 0.95) return metaLine(pick(['custom-title', 'ai-title', 'agent-name']), { customTitle: 't', aiTitle: 'a', agentName: 'n' });
  if (kind < 0.98 && !wide) return assistantLine({ id: `msg_${Math.floor(rnd() * 90)}`, output: Math.floor(rnd() * 99) }).replace('"type":"assistant"', '"type":"assist\\u0061nt"');
  return JSON.stringify({ type: 'api-request', body: 'x' });
}

test('fuzz: transcripts of odd records fold alike, from the start and resumed (repeats past the recent ids, models past the table, cost records)', () => {
  const rnd = createRng(17);
  for (let n = 0; n < 150; n++) {
    const wide = n % 5 === 0;
    const lines = Array.from({ length: 10 + Math.floor(rnd() * (wide ? 400 : 140)) }, (_, i) => randomRecord(rnd, 1 + (i % 28), wide));
    const file = write(lines, rnd() < 0.2 ? '\r\n' : '\n');
    const text = fs.readFileSync(file, 'latin1');
    const resume = text.indexOf('\n', Math.floor(rnd() * text.length)) + 1;
    assertSame(file);
    if (resume > 0) assertSame(file, resume);
  }
});
