import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSpecialFile, SPECIAL_KINDS, startFifoUnblocker } from '../../../test/fakes/special-files.ts';
import { isNotRegularFile } from '../regular-file/index.ts';
import { readJsonlFrom, readJsonlTail } from './index.ts';
import type { JsonlReadOptions, JsonlReadResult } from './index.ts';

let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'muster-jsonl-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string | Buffer): string {
  const p = join(dir, `f${n++}.jsonl`);
  writeFileSync(p, content);
  return p;
}

function readAll(p: string, offset = 0, options?: JsonlReadOptions): { records: unknown[]; starts: number[]; r: JsonlReadResult } {
  const records: unknown[] = [];
  const starts: number[] = [];
  const r = readJsonlFrom(p, offset, (rec, at) => { records.push(rec); starts.push(at); }, options);
  return { records, starts, r };
}

describe('readJsonlFrom', () => {
  it('reads complete lines and reports where each starts', () => {
    const p = file('{"a":1}\n[2]\n{"b":"x"}\n');
    const { records, starts, r } = readAll(p);
    assert.deepEqual(records, [{ a: 1 }, [2], { b: 'x' }]);
    assert.deepEqual(starts, [0, 8, 12]);
    assert.deepEqual(r, { offset: 22, linesParsed: 3, linesSkipped: 0, linesIgnored: 0, bytesRead: 22 });
  });

  it('does not consume a partial last line, then picks it up once finished', () => {
    const p = file('{"a":1}\n{"b":');
    const first = readAll(p);
    assert.deepEqual(first.records, [{ a: 1 }]);
    assert.equal(first.r.offset, 8);
    assert.equal(first.r.linesSkipped, 0, 'a partial line is not malformed');
    appendFileSync(p, '2}\n');
    const second = readAll(p, first.r.offset);
    assert.deepEqual(second.records, [{ b: 2 }]);
    assert.deepEqual(second.starts, [8]);
    assert.equal(second.r.offset, 16);
  });

  it('accepts CRLF line endings', () => {
    const p = file('{"a":1}\r\n{"b":2}\r\n');
    const { records, r } = readAll(p);
    assert.deepEqual(records, [{ a: 1 }, { b: 2 }]);
    assert.equal(r.offset, 18);
    assert.equal(r.linesSkipped, 0);
  });

  it('keeps U+2028 and U+2029 inside strings (no readline splitting)', () => {
    const p = file(`{"t":"a\u2028b\u2029c"}\n{"n":2}\n`);
    const { records, r } = readAll(p);
    assert.deepEqual(records, [{ t: 'a\u2028b\u2029c' }, { n: 2 }]);
    assert.equal(r.linesSkipped, 0);
  });

  it('skips and counts invalid UTF-8, binary, malformed and non-container lines', () => {
    const bad = Buffer.concat([
      Buffer.from('{"ok":1}\n'),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]), // {"a":"\xff\xfe"}
      Buffer.from([0x00, 0x01, 0x02, 0x0a]),
      Buffer.from('{"unterminated":\n'),
      Buffer.from('42\n"str"\nnull\n'),
      Buffer.from('\n   \n'), // blank lines: neither parsed nor skipped
      Buffer.from('{"ok":2}\n'),
    ]);
    const p = file(bad);
    const { records, r } = readAll(p);
    assert.deepEqual(records, [{ ok: 1 }, { ok: 2 }]);
    assert.equal(r.linesSkipped, 6);
    assert.equal(r.linesParsed, 2);
    assert.equal(r.offset, bad.length);
  });

  it('handles an empty file and an offset at the end', () => {
    const p = file('');
    assert.deepEqual(readAll(p).r, { offset: 0, linesParsed: 0, linesSkipped: 0, linesIgnored: 0, bytesRead: 0 });
    const q = file('{"a":1}\n');
    assert.deepEqual(readAll(q, 8).r, { offset: 8, linesParsed: 0, linesSkipped: 0, linesIgnored: 0, bytesRead: 0 });
  });

  it('returns the offset unchanged when the file shrank below it (caller restarts)', () => {
    const p = file('{"a":1}\n');
    assert.equal(readAll(p, 100).r.offset, 100);
  });

  it('throws for an unreadable file, never for content', () => {
    assert.throws(() => readAll(join(dir, 'missing.jsonl')), { code: 'ENOENT' });
  });

  it('refuses a FIFO, a socket or a device at once, unread (a blocking open would freeze the daemon)', () => {
    const unblocker = startFifoUnblocker(dir); // frees a blocked open after 2 s, so a regression fails instead of hanging
    try {
      for (const kind of SPECIAL_KINDS) {
        const p = join(dir, `special-${kind}.jsonl`);
        makeSpecialFile(p, kind);
        assert.throws(() => readAll(p), isNotRegularFile, kind);
        assert.throws(() => readJsonlTail(p, 100), isNotRegularFile, kind);
      }
    } finally {
      unblocker.stop();
    }
  });

  it('the ignore filter sees the head and skips lines without JSON.parse', () => {
    const big = JSON.stringify({ type: 'file-history-snapshot', blob: 'x'.repeat(100_000) });
    const p = file(`{"type":"user","n":1}\n${big}\n{"type":"user","n":2}\n`);
    const heads: string[] = [];
    const realParse = JSON.parse;
    let parses = 0;
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      parses++;
      return realParse(text, reviver);
    }) as typeof JSON.parse;
    let out: ReturnType<typeof readAll>;
    try {
      out = readAll(p, 0, {
        headBytes: 40,
        chunkBytes: 4096,
        ignore: (head) => { heads.push(head); return head.startsWith('{"type":"file-history-snapshot"'); },
      });
    } finally {
      JSON.parse = realParse;
    }
    assert.equal(parses, 2, 'only the two kept lines were parsed');
    assert.deepEqual(out.records, [{ type: 'user', n: 1 }, { type: 'user', n: 2 }]);
    assert.equal(out.r.linesIgnored, 1);
    assert.equal(out.r.linesSkipped, 0);
    assert.equal(heads.length, 3);
    assert.ok(heads.every((h) => Buffer.byteLength(h) <= 40), 'heads are at most headBytes');
  });

  it('streams past a 50 MB line: skipped by default, ignored when filtered, next line still read', () => {
    const huge = '{"blob":"' + 'y'.repeat(50 * 1024 * 1024) + '"}';
    const p = file(`{"n":1}\n${huge}\n{"n":2}\n`);
    const total = 8 + huge.length + 1 + 8;
    const skipped = readAll(p);
    assert.deepEqual(skipped.records, [{ n: 1 }, { n: 2 }]);
    assert.equal(skipped.r.linesSkipped, 1);
    assert.equal(skipped.r.offset, total);
    const ignored = readAll(p, 0, { ignore: (h) => h.startsWith('{"blob"') });
    assert.equal(ignored.r.linesIgnored, 1);
    assert.equal(ignored.r.linesSkipped, 0);
    const parsed = readAll(p, 8, { maxLineBytes: 64 * 1024 * 1024 });
    assert.equal(parsed.r.linesParsed, 2, 'a raised limit parses it');
  });

  it('skips a line just over maxLineBytes and keeps one exactly at it (CRLF not counted)', () => {
    const at = '{"s":"' + 'a'.repeat(10) + '"}'; // 18 bytes
    const over = '{"s":"' + 'a'.repeat(11) + '"}';
    const p = file(`${at}\r\n${over}\n`);
    const { records, r } = readAll(p, 0, { maxLineBytes: 18, chunkBytes: 5 });
    assert.deepEqual(records, [{ s: 'a'.repeat(10) }]);
    assert.equal(r.linesSkipped, 1);
  });

  it('resuming from each returned offset gives the same totals as one read', () => {
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      if (i % 37 === 0) lines.push('{broken');
      else if (i % 53 === 0) lines.push(JSON.stringify({ skip: true, pad: 'p'.repeat(i * 10) }));
      else lines.push(JSON.stringify({ i, s: `v\u2028${'z'.repeat(i % 97)}` }));
    }
    const p = file(lines.join('\n') + '\n{"tail":');
    const ignore = (h: string): boolean => h.startsWith('{"skip"');
    const whole = readAll(p, 0, { ignore });
    const got: unknown[] = [];
    const totals = { linesParsed: 0, linesSkipped: 0, linesIgnored: 0 };
    let offset = 0;
    for (let calls = 0; calls < 10_000; calls++) {
      const r = readJsonlFrom(p, offset, (rec) => got.push(rec), { ignore, maxBytes: 700, chunkBytes: 256 });
      totals.linesParsed += r.linesParsed;
      totals.linesSkipped += r.linesSkipped;
      totals.linesIgnored += r.linesIgnored;
      if (r.offset === offset) break;
      offset = r.offset;
    }
    assert.deepEqual(got, whole.records);
    assert.equal(offset, whole.r.offset);
    assert.deepEqual(totals, { linesParsed: whole.r.linesParsed, linesSkipped: whole.r.linesSkipped, linesIgnored: whole.r.linesIgnored });
    assert.ok(whole.r.linesSkipped >= 10 && whole.r.linesIgnored >= 5);
  });

  it('maxBytes bounds the read but always finishes a first line longer than the budget', () => {
    const p = file(`{"x":"${'q'.repeat(5000)}"}\n{"n":1}\n{"n":2}\n`);
    const r1 = readAll(p, 0, { maxBytes: 100, chunkBytes: 64 });
    assert.equal(r1.r.linesParsed, 1);
    assert.equal(r1.r.offset, 5009);
    const r2 = readAll(p, r1.r.offset, { maxBytes: 10 });
    assert.deepEqual(r2.records, [{ n: 1 }]);
    assert.equal(r2.r.bytesRead, 10);
  });
});

describe('readJsonlTail', () => {
  it('drops the first partial line of the window and the unfinished last line', () => {
    const p = file('{"n":1}\n{"n":2}\n{"n":3}\n{"n":');
    assert.deepEqual(readJsonlTail(p, 20), [{ n: 3 }]); // window starts inside {"n":2}
    assert.deepEqual(readJsonlTail(p, 21), [{ n: 2 }, { n: 3 }]); // window starts exactly at a line
    assert.deepEqual(readJsonlTail(p, 10_000), [{ n: 1 }, { n: 2 }, { n: 3 }]);
    assert.deepEqual(readJsonlTail(file(''), 100), []);
  });
});
