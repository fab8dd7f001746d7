import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { readLinesFrom } from '../jsonl/index.ts';
import { createLineScanner, KIND } from './index.ts';
import type { LineScanner } from './index.ts';
import * as layout from './layout.ts';
import { keyHash } from './tables.ts';

const PATHS = [['type'], ['n'], ['s'], ['o'], ['o', 'x'], ['o', 'y'], ['o', 'y', 'z'], ['a']] as const;
const TYPES = ['a', 'b'];

function scanner(claudeHeads = false): LineScanner {
  const sc = createLineScanner({ paths: PATHS, fastTypes: TYPES, heads: claudeHeads ? 'claude' : 'none' });
  assert.ok(sc, 'WebAssembly is available in Node');
  return sc;
}

function tempFile(content: Buffer | string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'muster-scan-')), 'a.jsonl');
  fs.writeFileSync(file, content);
  return file;
}

/** What JSON.parse says of a line: the tracked values (the inside of untracked objects and arrays left out), or undefined when it is not a clean object. */
function reference(line: Buffer): Record<string, unknown> | undefined {
  if (!isUtf8(line)) return undefined;
  let text = line.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return project(parsed as Record<string, unknown>, []);
}

function project(o: Record<string, unknown>, at: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of PATHS) {
    if (p.length !== at.length + 1 || !at.every((k, i) => p[i] === k)) continue;
    const key = p[at.length] as string;
    if (!Object.hasOwn(o, key)) continue;
    const v = o[key];
    out[key] = Array.isArray(v) ? [] : typeof v === 'object' && v !== null ? project(v as Record<string, unknown>, p) : v;
  }
  return out;
}

/** The clean line's values as the scanner gives them, in the reference's shape. */
function scanned(sc: LineScanner, node = 0, at: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  PATHS.forEach((p, i) => {
    if (p.length !== at.length + 1 || !at.every((k, j) => p[j] === k) || sc.kind(i + 1) === 0) return;
    out[p[at.length] as string] = sc.kind(i + 1) === KIND.object ? scanned(sc, i + 1, p) : sc.value(i + 1);
  });
  void node;
  return out;
}

/** Every line of `lines` through the scanner: clean ones checked against JSON.parse; returns how many were clean. */
function check(lines: Buffer[], sc = scanner()): { clean: number; other: number } {
  const file = tempFile(Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
  let i = 0;
  const seen = { clean: 0, other: 0 };
  sc.readFile(file, 0, 1 << 30, 512, {
    clean(type, line) {
      const want = reference(line);
      assert.ok(want, `clean but JSON.parse refuses it: ${JSON.stringify(line.toString('latin1').slice(0, 200))}`);
      assert.deepEqual(scanned(sc), want, line.toString().slice(0, 200));
      assert.equal(TYPES[type], want.type);
      seen.clean++;
      i++;
    },
    line() {
      seen.other++;
      i++;
    },
    oversize: () => assert.fail('no line is over the limit'),
  });
  assert.equal(i, lines.filter((l) => l.toString().trim() !== '').length, 'every non-blank line is handed over once');
  return seen;
}

const CASES = [
  '{"type":"a","n":1,"s":"x"}',
  '{"type":"a","o":{"x":1,"y":{"z":2}},"o":{"y":[]}}', // a repeated key replaces the whole value
  '{"type":"a","n":1e3,"s":-0,"a":[1,{"type":"b"}],"o":{"x":1.5E+2,"y":{"z":-0.25e-3}}}',
  ' \t{"type" : "a" , "s" : "\\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u00e9 \\ud800 \\u0041" } \t',
  '\ufeff{"type":"a","s":"é 中 😀","n":null}',
  '{"type":"a","s":true,"n":false,"o":"not an object","a":{}}',
  '{"type":"b","o":{"x":{"deep":[[[{}]]]},"y":{"z":{"w":1}}}}',
  '{"type":"a","x":{"type":"c"},"type":"b"}', // the last type wins
  '{"type":"a","s":""}',
  '{"type":"a"}',
];

test('clean lines give every tracked value as JSON.parse gives it', () => {
  const seen = check(CASES.map((c) => Buffer.from(c)));
  assert.deepEqual(seen, { clean: CASES.length, other: 0 });
});

test('anything that is not one clean object of a fast type goes back as a line', () => {
  const others = [
    '{"type":"c","n":1}', '{"n":1}', '[{"type":"a"}]', '"a"', '{"type":"a"', '{"type":"a",}', '{"type":"a","n":01}', '{"type":"a","n":1.}',
    '{"type":"a","n":.5}', '{"type":"a","n":-}', '{"type":"a","n":1e}', '{"type":"a","s":"\\x"}', '{"type":"a","s":"\\u12g4"}', '{"type":"a","s":"a\tb"}',
    '{"type":"a","n":tru}', '{"type":"a","n":nulls}', '{"type":"a"} x', '{"type":"a"}{"type":"a"}', '{"t\\u0079pe":"a"}', '{"type":"\\u0061"}',
    `{"type":"a","a":${'['.repeat(1001)}${']'.repeat(1001)}}`, '{"type":"a","n":1 2}', "{'type':'a'}",
  ].map((c) => Buffer.from(c));
  others.push(Buffer.concat([Buffer.from('{"type":"a","s":"'), Buffer.from([0xff]), Buffer.from('"}')])); // not UTF-8
  others.push(Buffer.concat([Buffer.from('{"type":"a","s":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])); // an encoded surrogate
  others.push(Buffer.concat([Buffer.from('{"type":"a","s":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')])); // overlong
  assert.deepEqual(check(others), { clean: 0, other: others.length });
});

test('fuzz: a line the scanner calls clean is one JSON.parse accepts, with the same values', () => {
  let seed = 7;
  const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
  const alphabet = Buffer.from('{}[]":,\\ \t0123456789-+.eEtrufalsnbu/\x00\x1f\x7f\xc3\xa9\xed\xa0\x80\xf0\x9f\xef\xbb\xbf');
  const lines: Buffer[] = [];
  for (let n = 0; n < 20_000; n++) {
    let b = Buffer.from(CASES[rand(CASES.length)] as string);
    for (let m = 1 + rand(3); m > 0; m--) {
      const at = rand(b.length + 1);
      const op = rand(4);
      const c = Buffer.from([alphabet[rand(alphabet.length)] as number]);
      if (op === 0) b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1)]);
      else if (op === 1) b = Buffer.concat([b.subarray(0, at), c, b.subarray(at)]);
      else if (op === 2 && at < b.length) b[at] = c[0] as number;
      else b = b.subarray(0, at);
    }
    if (!b.includes(0x0a)) lines.push(b);
  }
  const seen = check(lines);
  assert.ok(seen.clean > 1000 && seen.other > 1000, `both kinds met: ${JSON.stringify(seen)}`);
});

/** Lines as readLinesFrom hands them, with what the scanner's loop passed over counted apart. */
function bothReaders(file: string, from: number, maxLine: number, claudeHeads: boolean): void {
  const js: string[] = [];
  const r = readLinesFrom(file, from, { line: (b) => void js.push(`line ${b.toString('latin1')}`), oversize: (h) => void js.push(`oversize ${h.toString('latin1')}`) }, { maxLineBytes: maxLine, headBytes: 512 });
  const wasm: string[] = [];
  const sc = scanner(claudeHeads);
  const w = sc.readFile(file, from, maxLine, 512, {
    clean: (_t, b) => void wasm.push(`line ${b.toString('latin1')}`),
    line: (b) => void wasm.push(`line ${b.toString('latin1')}`),
    oversize: (h) => void wasm.push(`oversize ${h.toString('latin1')}`),
  });
  const blankOrIgnored = (l: string): boolean => l.startsWith('line ') && (/^[ \t\r]*$/.test(l.slice(5)) || (claudeHeads && l.startsWith('line {"type":"mode"')));
  assert.deepEqual(wasm, js.filter((l) => !blankOrIgnored(l)));
  assert.equal(w.offset, r.offset);
  assert.equal(w.ignored, claudeHeads ? js.filter((l) => l.startsWith('line {"type":"mode"')).length : 0);
}

test('the loop hands over the lines readLinesFrom hands over: CRLF, blanks, no final newline, offsets, oversize, lines past the chunk', () => {
  const long = `{"type":"a","s":"${'x'.repeat(2 * 1024 * 1024)}"}`; // longer than the 1 MiB chunk
  const text = ['{"type":"a"}\r', '', '  \t', '{"type":"mode","m":1}', '{"type":"b","s":"crlf"}\r', 'not json', '{"type":"a","s":"' + 'y'.repeat(3000) + '"}', long, '{"type":"a","n":2}', '{"type":"a","n":3}'].join('\n') + '\n{"type":"a","n":"unfinished"';
  const file = tempFile(text);
  for (const claudeHeads of [false, true]) {
    for (const from of [0, text.indexOf('{"type":"b"'), text.indexOf(long) + 5, text.length, text.length + 10]) {
      for (const maxLine of [8 * 1024 * 1024, 2000, 6 * 1024 * 1024]) bothReaders(file, from, maxLine, claudeHeads);
    }
  }
});

test('the layout the host writes is the one the AssemblyScript source reads', () => {
  const source = fs.readFileSync(new URL('./assembly/layout.ts', import.meta.url), 'utf8');
  const constant = (name: string): number => Number(new RegExp(`export const ${name}: usize = (\\d+);`).exec(source)?.[1]);
  for (const name of ['NODE_COUNT', 'TABLE', 'KEY_HASH', 'KEY_BUCKETS', 'KEY_NEXT', 'TYPES', 'OUT', 'SPANS', 'MAXTS', 'NEEDLE', 'INPUT', 'CHUNK_END', 'SUMMARY'] as const) assert.equal(constant(name), layout[name], name);
  assert.ok(layout.TABLE + layout.MAX_NODES * 16 <= layout.KEY_HASH && layout.KEY_HASH + layout.KEY_BUCKETS <= layout.KEY_NEXT && layout.KEY_NEXT + layout.MAX_NODES <= layout.KEYS, 'the key hash lies between the node table and the keys');
  assert.ok(layout.MAX_NODES <= 256 && (layout.KEY_BUCKETS & (layout.KEY_BUCKETS - 1)) === 0, 'a node fits a byte; the buckets are a power of two');
  // Claude's summary: every offset, size and bit.
  const summary = [...source.matchAll(/export const ((?:S|D)_\w+|\w+_(?:CAP|SIZE|MAX|TEXT)|MAX_MODELS): (?:usize|i32) = (\d+);/g)];
  assert.ok(summary.length >= 30);
  for (const [, name, value] of summary) assert.equal((layout as Record<string, unknown>)[name as string], Number(value), name);
  const scan = fs.readFileSync(new URL('./assembly/scan.ts', import.meta.url), 'utf8');
  for (const name of ['NEED_MORE', 'CLEAN', 'OTHER', 'OVERSIZE', 'TOKEN', 'CLOSED'] as const) assert.equal(Number(new RegExp(`const ${name}: i32 = (\\d+);`).exec(scan)?.[1]), layout[name], name);
  assert.ok(layout.OUT + layout.MAX_NODES * 16 <= 16384 && layout.NEEDLE + layout.NEEDLE_MAX <= layout.MODULE_DATA);
  assert.ok(layout.S_MODELS + layout.MAX_MODELS * layout.M_SIZE <= layout.S_RECENT && layout.S_RECENT + layout.RECENT_MAX * layout.R_SIZE <= layout.S_PROMPT &&
    layout.S_PROMPT + 4 + layout.PROMPT_CAP <= layout.S_COSTS && layout.S_COSTS + 4 + layout.COST_MAX * layout.C_SIZE <= 65536 && 8 + 2 * layout.COST_TEXT <= layout.C_SIZE, 'the summary fits its 64 KiB');
});

test('the committed WebAssembly module is the build of its AssemblyScript source', () => {
  const out = execFileSync(process.execPath, [new URL('../../../scripts/build-wasm.mjs', import.meta.url).pathname, '--check'], { encoding: 'utf8' });
  assert.match(out, /matches its source/);
});

test('tracked keys that share a bucket of the key hash are each found, and only under their own parent', () => {
  // "axb" and "ayb": the same length, first and last byte, so the same bucket under one parent.
  const paths = [['type'], ['axb'], ['ayb'], [''], ['o'], ['o', 'axb'], ['o', 'ayb'], ['o', '']];
  assert.equal(keyHash(0, Buffer.from('axb')), keyHash(0, Buffer.from('ayb')));
  assert.equal(keyHash(5, Buffer.from('axb')), keyHash(5, Buffer.from('ayb'))); // node 5: o
  const sc = createLineScanner({ paths, fastTypes: ['t'], heads: 'none' });
  assert.ok(sc);
  const lines = [
    '{"type":"t","ayb":2,"axb":1,"o":{"ayb":4,"axb":3,"":6},"":5}',
    '{"type":"t","azb":9,"o":{"axb":3,"azb":9,"a":1},"ayb":2,"ab":0}',
    '{"type":"t","o":{"o":{"axb":7}},"axb":{"ayb":8},"x":{"axb":9,"":1}}',
    '{"type":"t","ayb":1,"ayb":{"axb":2},"o":{"axb":1},"o":{"ayb":3}}', // a repeated key: the last wins, whole
  ];
  const want = [
    { type: 't', axb: 1, ayb: 2, o: { axb: 3, ayb: 4, '': 6 }, '': 5 },
    { type: 't', ayb: 2, o: { axb: 3 } },
    { type: 't', o: {}, axb: {} },
    { type: 't', ayb: {}, o: { ayb: 3 } },
  ];
  const seen: unknown[] = [];
  sc.readFile(tempFile(lines.join('\n') + '\n'), 0, 1 << 20, 512, { clean: () => void seen.push(sc.record()), line: () => assert.fail('all clean'), oversize: () => assert.fail('small') });
  assert.deepEqual(seen, want);
});

test('holds finds bytes in a value, anywhere in it, and nowhere else', () => {
  const sc = scanner();
  const file = tempFile(['{"type":"a","s":"github.com/x","o":{"x":"hub.co"},"n":"hub.com"}', `{"type":"a","s":"${'h'.repeat(40)}ub.com"}`, '{"type":"a","s":"hu"}'].join('\n') + '\n');
  const found: boolean[][] = [];
  sc.readFile(file, 0, 1 << 20, 512, {
    clean: () => void found.push([sc.holds(3, Buffer.from('hub.com')), sc.holds(4, Buffer.from('hub.com')), sc.holds(2, Buffer.from('"hub.com"'))]),
    line: () => assert.fail('all clean'),
    oversize: () => assert.fail('none oversize'),
  });
  assert.deepEqual(found, [[true, false, true], [true, false, false], [false, false, false]]);
});

test('scanners of one thread share the module: each read has its own tables; a read inside a read is refused', () => {
  const a = scanner();
  const b = createLineScanner({ paths: [['kind'], ['v']], fastTypes: ['k'], heads: 'none' });
  assert.ok(b);
  const fileA = tempFile('{"type":"a","n":1,"v":9}\n');
  const fileB = tempFile('{"kind":"k","v":2,"n":9}\n');
  const seen: unknown[] = [];
  for (let round = 0; round < 2; round++) {
    a.readFile(fileA, 0, 1 << 20, 512, { clean: () => void seen.push(a.record()), line: () => assert.fail('clean'), oversize: () => assert.fail('small') });
    b.readFile(fileB, 0, 1 << 20, 512, { clean: () => void seen.push(b.record()), line: () => assert.fail('clean'), oversize: () => assert.fail('small') });
  }
  assert.deepEqual([...seen], [{ type: 'a', n: 1 }, { kind: 'k', v: 2 }, { type: 'a', n: 1 }, { kind: 'k', v: 2 }]);
  assert.throws(() => a.readFile(fileA, 0, 1 << 20, 512, {
    clean: () => b.readFile(fileB, 0, 1 << 20, 512, { clean: () => undefined, line: () => undefined, oversize: () => undefined }),
    line: () => undefined,
    oversize: () => undefined,
  }), /inside another read/);
  a.readFile(fileA, 0, 1 << 20, 512, { clean: () => void seen.push(a.record()), line: () => assert.fail('clean'), oversize: () => assert.fail('small') });
  assert.deepEqual(seen.at(-1), { type: 'a', n: 1 }, 'usable again after the refused read');
});
