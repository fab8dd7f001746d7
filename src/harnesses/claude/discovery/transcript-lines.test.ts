import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { assistantLine, metaLine, tempHome, toolResultLine, userLine } from './claude-fixtures.test-support.ts';
import { applyRecord, createTranscriptSummary, ignoreTranscriptLine } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import { foldTranscriptFile, isIgnoredLine } from './transcript-lines.ts';
import { costOf } from './transcript-usage.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';

/** The reference: every line not ignored by its head parsed whole (the index before the skeleton). */
function wholeParse(file: string): { s: TranscriptSummary; skipped: number; usage: UsageRecord[] } {
  const s = createTranscriptSummary();
  const usage: UsageRecord[] = [];
  const sink = { sessionId: 'a', emit: (u: UsageRecord) => void usage.push(u) };
  const r = readJsonlFrom(file, 0, (rec) => applyRecord(s, rec, sink), { ignore: ignoreTranscriptLine, maxLineBytes: 8 * 1024 * 1024 });
  s.records += r.linesIgnored;
  return { s, skipped: r.linesSkipped, usage };
}

function fast(file: string): { s: TranscriptSummary; skipped: number; usage: UsageRecord[] } {
  const s = createTranscriptSummary();
  const usage: UsageRecord[] = [];
  const r = foldTranscriptFile(file, 0, s, 8 * 1024 * 1024, { sessionId: 'a', emit: (u) => void usage.push(u) });
  return { s, skipped: r.linesSkipped, usage };
}

const big = (n: number, seed = 'x'): string => `${seed}\t"quoted" \\back\\slash\\ ${'code();\n'.repeat(Math.ceil(n / 8))}`.slice(0, n);

function write(lines: (string | Buffer)[]): string {
  const file = path.join(tempHome(), 'a.jsonl');
  fs.writeFileSync(file, Buffer.concat(lines.map((l) => Buffer.concat([typeof l === 'string' ? Buffer.from(l) : l, Buffer.from('\n')]))));
  return file;
}

function assertSame(file: string): void {
  const a = wholeParse(file);
  const b = fast(file);
  assert.deepEqual(b.s, a.s);
  assert.equal(b.skipped, a.skipped, 'the same lines are skipped as malformed');
  assert.equal(costOf(b.s.usage), costOf(a.s.usage));
  assert.deepEqual(b.usage, a.usage, 'the same usage records, in the same order');
}

test('large lines read through their skeleton give the summary a whole parse gives: tokens, cost, times, cwd, branch', () => {
  const long = big(300_000);
  assertSame(write([
    userLine('fix the build', { ts: '2026-11-30T06:52:53.501Z' }),
    toolResultLine(long, { ts: '2026-11-30T06:53:04.614Z', cwd: '/home/dev/other', branch: 'feature/x' }),
    assistantLine({ id: 'msg_1', input: 3000, output: 20, cacheRead: 12000, ts: '2026-11-30T06:53:05.000Z', requestId: 'req_1' }),
    // A large assistant record (a long answer) repeated per content block with growing usage.
    JSON.stringify({ ...JSON.parse(assistantLine({ id: 'msg_2', input: 10, output: 5 })), message: { ...JSON.parse(assistantLine({ id: 'msg_2' })).message, content: [{ type: 'text', text: long }], usage: { input_tokens: 10, output_tokens: 5 } } }),
    JSON.stringify({ ...JSON.parse(assistantLine({ id: 'msg_2', input: 10, output: 900 })), message: { ...JSON.parse(assistantLine({ id: 'msg_2' })).message, content: [{ type: 'tool_use', input: { content: long } }], usage: { input_tokens: 10, output_tokens: 900 } } }),
    metaLine('cost-state', { totalCostUSD: 0.5, startTime: 1 }),
    toolResultLine(big(5000), { ts: '2026-11-30T07:00:00.000Z' }),
    // Not canonical timestamps: normalised the slow way.
    toolResultLine(big(5000), { ts: '2026-11-30T07:01:00Z' }),
    toolResultLine(big(5000), { ts: '2026-02-30T07:01:00.000Z' }),
  ]));
});

test('a large first prompt, a PR link in a large tool output and long titles are read whole', () => {
  const long = big(50_000);
  assertSame(write([
    toolResultLine(big(4000)), // before any prompt: read whole (it might have been the prompt)
    userLine(`<system-reminder>x</system-reminder> ${long}`),
    userLine(`please ${long}`),
    toolResultLine(`${long} created https://github.com/acme/app/pull/42 ${long}`),
    metaLine('custom-title', { customTitle: `title ${long}` }),
    metaLine('last-prompt', { lastPrompt: `last ${long}` }),
    metaLine('ai-title', { aiTitle: long }),
  ]));
});

test('PR links are found in every tool result text a skeleton elides or keeps, not in the copy in toolUseResult', () => {
  const long = big(40_000);
  const link = 'https://github.com/acme/app/pull/7';
  const arrayResult = (parts: { type: string; text: string }[], copy: string): string =>
    JSON.stringify({ ...JSON.parse(toolResultLine('x')), message: { role: 'user', content: [{ tool_use_id: 'toolu_2', type: 'tool_result', content: parts }] }, toolUseResult: { stdout: copy } });
  const file = write([
    userLine('first'),
    arrayResult([{ type: 'text', text: long }, { type: 'text', text: `${long} see ${link}` }], 'plain'), // in an elided part
    arrayResult([{ type: 'text', text: `opened ${link.replace('7', '8')}` }], long), // in a kept part of a large line
    arrayResult([{ type: 'text', text: long }], `${long} ${link.replace('7', '9')}`), // only in the copy: not a tool result's text
    toolResultLine(`${long} ${link.replace('7', '10')}`.replace(/"/g, "'")),
  ]);
  assertSame(file);
  const s = createTranscriptSummary();
  foldTranscriptFile(file, 0, s, 8 * 1024 * 1024, undefined, { items: [], options: { toolOutput: true } });
  assert.deepEqual(s.prLinks, [link, link.replace('7', '8'), link.replace('7', '10')]);
});

test('fields too long for the skeleton (a long cwd, model or message id) fall back to a whole parse', () => {
  const long = big(20_000);
  const cwd = `/home/dev/${'deep/'.repeat(100)}`;
  assertSame(write([
    userLine('go'),
    toolResultLine(long, { cwd }),
    assistantLine({ id: `msg_${'9'.repeat(400)}`, model: `claude-${'x'.repeat(300)}`, ts: '2026-11-30T06:59:00.000Z' }).replace('"hi from fake model"', JSON.stringify(long)),
    JSON.stringify({ ...JSON.parse(toolResultLine(long)), sessionId: 's'.repeat(500), gitBranch: 'b'.repeat(300) }),
  ]));
});

test('malformed, invalid UTF-8, oversize-ignored and odd lines are counted as a whole parse counts them', () => {
  const long = big(30_000);
  const good = toolResultLine(long);
  assertSame(write([
    userLine('start'),
    good.slice(0, 20_000), // torn: cut mid-string, no closing brace
    good.slice(0, 20_000) + good, // torn, then the next record on the same line
    Buffer.concat([Buffer.from(good.slice(0, 10_000)), Buffer.from([0xff, 0xfe]), Buffer.from(good.slice(10_000))]),
    `[${good}]`,
    `   ${good}`,
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good)]),
    `${good}\r`,
    JSON.stringify({ type: 'api-request-blob', blob: long }),
    JSON.stringify({ parentUuid: 'u', isSidechain: true, attachment: { content: long }, type: 'attachment' }),
    JSON.stringify({ type: 'unknown-kind', payload: long }),
    JSON.stringify({ note: 'no type', payload: long }),
    '',
  ]));
});

test('the byte test for ignored heads agrees with the head patterns', () => {
  const lines = [
    '{"type":"api-request-blob","sessionId":"x"', '{"type":"api-request","x":1}', '{"type":"file-history-snapshot"', '{"type":"tools-used","x":1}',
    '{"type":"tools-usedX"', '{"type":"mode","x":1}', '{"type":"modes"', '{"type":"permission-mode","x":1}', '{"type":"atis-latch","x":1}',
    '{"parentUuid":null,"isSidechain":false,"attachment":{"type":"prompt_snapshot"', '{"parentUuid":"abc","isSidechain":true,"attachment":{',
    '{"parentUuid":"abc","isSidechain":false,"type":"user"', '{"parentUuid":"ab"c","isSidechain":false,"attachment":', `{"parentUuid":"${'a'.repeat(600)}","isSidechain":false,"attachment":{`,
    '{"type":"cost-state"', userLine('hi'), assistantLine({ id: 'm' }), ' {"type":"mode"}',
  ];
  for (const l of lines) assert.equal(isIgnoredLine(Buffer.from(l)), ignoreTranscriptLine(l.slice(0, 512)), l.slice(0, 80));
});
