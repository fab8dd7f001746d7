/**
 * Lines the JavaScript fold reads as skeletons (longer than WHOLE_LINE_BYTES): their long strings are
 * elided unchecked, so a line may be valid only as a skeleton (a bad escape, a bare control character
 * inside a long string). The module crosses those strings as the skeleton does and folds such a line
 * only where the skeleton's fold applies it as it is; the summaries must stay the JavaScript fold's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { parseSkeleton } from '../../../discovery/jsonl/index.ts';
import { assertFoldsAlike, userLine, writeLines } from './claude-fixtures.test-support.ts';
import { createRng } from '../../seeded-rng.test-support.ts';
import { ELIDE_BYTES, WHOLE_LINE_BYTES } from './transcript-lines.ts';

const LONG = '"@@LONG@@"';

const GOOD = ['code', ' ', 'x', '\\n', '\\"', '\\\\', '\\\\\\"', '\\t', '\\u00e9', '\\/', 'é', '😀', 'hub.co'];
const BAD = ['\\x', '\\q', '\\u12', '\t', '\u0001', '\\u0041', 'hub.com', '\xff'];

/**
 * The inside of a JSON string, raw, of about `length` bytes: escapes good and bad, bare control
 * characters, backslash runs before quotes, UTF-8 good and bad. `flaws`: how many bad pieces, each at a
 * place drawn anew (so one may lie anywhere, past the skeleton's limit or just before it).
 */
function rawText(rnd: () => number, length: number, flaws: number): Buffer {
  const parts: Buffer[] = [];
  let n = 0;
  while (n < length) {
    const b = Buffer.from(GOOD[Math.floor(rnd() * GOOD.length)] as string);
    parts.push(b);
    n += b.length;
  }
  for (let i = 0; i < flaws; i++) {
    const bad = BAD[Math.floor(rnd() * BAD.length)] as string;
    parts.splice(Math.floor(rnd() * (parts.length + 1)), 0, bad === '\xff' ? Buffer.from([0xff]) : Buffer.from(bad));
  }
  return Buffer.concat(parts);
}

/** A string's inside of about `n` bytes: mostly about the skeleton's limit, or well over it. */
function around(rnd: () => number): number {
  const r = rnd();
  return r < 0.5 ? ELIDE_BYTES - 20 + Math.floor(rnd() * 30) : r < 0.85 ? 300 + Math.floor(rnd() * 3000) : Math.floor(rnd() * 200);
}

/** A record with a long raw string in one of its untracked places; tracked fields about the skeleton's limit. */
function randomLine(rnd: () => number): Buffer {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  // A string's inside of 254 bytes is the longest the skeleton keeps (its text, quotes included, 256).
  const near = (c: string): string => c.repeat(pick([252, 253, 254, 255, 256]));
  const conversation = {
    timestamp: '2026-11-30T07:00:00.000Z', sessionId: 's-1',
    cwd: rnd() < 0.25 ? `/${near('c').slice(1)}` : '/home/dev/p', gitBranch: 'main',
  };
  const pad = rnd() < 0.3 ? 'p'.repeat(700 + Math.floor(rnd() * 600)) : 'p'; // lines either side of WHOLE_LINE_BYTES
  const kind = rnd();
  let record: Record<string, unknown>;
  if (kind < 0.35) {
    const message = rnd() < 0.8 ? { id: `msg_${Math.floor(rnd() * 20)}`, model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 3, output_tokens: 5 } } : 'm';
    record = { parentUuid: 'p', isSidechain: false, type: 'assistant', message, requestId: rnd() < 0.3 ? near('q') : 'req_1', pad, ...conversation };
  } else if (kind < 0.6) {
    record = { parentUuid: 'p', isSidechain: false, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }, pad, ...conversation };
  } else if (kind < 0.7) {
    record = { parentUuid: 'p', isSidechain: false, type: 'system', subtype: 'x', pad, ...conversation };
  } else if (kind < 0.8) {
    record = { type: 'last-prompt', lastPrompt: 'go on', pad, sessionId: 's-1' };
  } else if (kind < 0.9) {
    record = { type: 'cost-state', totalCostUSD: 0.25, startTime: 1, pad, sessionId: 's-1' };
  } else {
    record = { type: pick(['custom-title', 'ai-title', 'summary']), customTitle: 't', pad, sessionId: 's-1' };
  }
  // The raw string: a text's or a tool result's content where there is one, else a field of its own (toolUseResult).
  let text = JSON.stringify(record);
  const inMessage = ['"text":"x"', '"content":"x"'].find((x) => text.includes(x));
  text = inMessage && rnd() < 0.8 ? text.replace(inMessage, `${inMessage.slice(0, -3)}${LONG}`) : text.replace('"pad"', `"toolUseResult":${LONG},"pad"`);
  const at = text.indexOf(LONG);
  const inside = rawText(rnd, around(rnd), pick([0, 0, 1, 1, 2]));
  return Buffer.concat([Buffer.from(text.slice(0, at + 1)), inside, Buffer.from(text.slice(at + LONG.length - 1))]);
}

test('fuzz: lines valid only as skeletons (bad escapes, bare controls in long strings) fold as the JavaScript fold folds them', () => {
  const rnd = createRng(29);
  let onlySkeleton = 0;
  for (let n = 0; n < 120; n++) {
    const lines: Buffer[] = [];
    if (rnd() < 0.8) lines.push(Buffer.from(userLine('first prompt'))); // the first prompt known: user records fold in the module
    for (let i = 5 + Math.floor(rnd() * 40); i > 0; i--) lines.push(randomLine(rnd));
    for (const l of lines) {
      if (l.length <= WHOLE_LINE_BYTES) continue;
      let whole = true;
      try {
        JSON.parse(l.toString('utf8'));
      } catch {
        whole = false;
      }
      if (!whole && parseSkeleton(l, ELIDE_BYTES) !== undefined) onlySkeleton++;
    }
    const file = writeLines(lines, rnd() < 0.2 ? '\r\n' : '\n');
    assertFoldsAlike(file);
    const text = fs.readFileSync(file, 'latin1');
    const resume = text.indexOf('\n', Math.floor(rnd() * text.length)) + 1;
    if (resume > 0) assertFoldsAlike(file, resume);
  }
  assert.ok(onlySkeleton > 200, `lines valid only as skeletons met: ${onlySkeleton}`);
});

test('at the limits: a kept string is checked whole, and a line of WHOLE_LINE_BYTES is parsed whole', () => {
  const lines: Buffer[] = [Buffer.from(userLine('first prompt'))];
  const flawed = (inside: number, flaw: string): Buffer => Buffer.concat([Buffer.from('x'.repeat(inside - flaw.length)), Buffer.from(flaw)]);
  const line = (type: string, inside: Buffer, length?: number): Buffer => {
    const make = (pad: string): Buffer => {
      const record = type === 'assistant'
        ? { parentUuid: 'p', isSidechain: false, type, message: { id: 'msg_1', model: 'm', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 1 } }, pad, timestamp: '2026-11-30T07:00:00.000Z', sessionId: 's' }
        : { parentUuid: 'p', isSidechain: false, type, message: { role: 'user', content: [{ type: 'tool_result', content: 'x' }] }, pad, timestamp: '2026-11-30T07:00:00.000Z', sessionId: 's' };
      const text = JSON.stringify(record).replace(type === 'assistant' ? '"text":"x"' : '"content":"x"', type === 'assistant' ? `"text":${LONG}` : `"content":${LONG}`);
      const at = text.indexOf(LONG);
      return Buffer.concat([Buffer.from(text.slice(0, at + 1)), inside, Buffer.from(text.slice(at + LONG.length - 1))]);
    };
    const short = make('');
    return make('p'.repeat(length === undefined ? 1200 : length - short.length));
  };
  for (const type of ['assistant', 'user']) {
    for (const flaw of ['\\x', '\t', '\\u12']) {
      // Strings of 252 to 256 bytes inside, the flaw their last: kept (and so parsed) up to 254.
      for (let inside = ELIDE_BYTES - 4; inside <= ELIDE_BYTES; inside++) lines.push(line(type, flawed(inside, flaw)));
      // A line of exactly WHOLE_LINE_BYTES is parsed whole (the flawed long string makes it malformed); one byte more, as a skeleton.
      for (const length of [WHOLE_LINE_BYTES - 1, WHOLE_LINE_BYTES, WHOLE_LINE_BYTES + 1]) lines.push(line(type, flawed(600, flaw), length));
    }
  }
  assert.ok(lines.some((l) => l.length === WHOLE_LINE_BYTES) && lines.some((l) => l.length === WHOLE_LINE_BYTES + 1));
  assertFoldsAlike(writeLines(lines));
});
