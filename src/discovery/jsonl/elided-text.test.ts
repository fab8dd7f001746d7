import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ElidedText, safeCut } from './elided-text.ts';
import { ELIDED, elidedRanges, parseSkeleton } from './skeleton.ts';

/** Text with every kind of escape and multi-byte character JSON.stringify writes, and raw ones it keeps. */
const TRICKY = 'a"b\\c\nd\te\u0001f\u00e9g\u20ach\ud83d\ude00i\ud800j/k';

describe('safeCut', () => {
  it('a cut at any byte, moved back by safeCut, decodes to a prefix of the whole string', () => {
    const value = TRICKY.repeat(40);
    const json = Buffer.from(JSON.stringify(value));
    let longest = 0;
    for (let p = 1; p < json.length - 1; p++) {
      const cut = safeCut(json, 1, p);
      assert.ok(cut <= p && cut >= Math.max(1, p - 6), `cut ${cut} for ${p}`);
      const prefix = JSON.parse(`${json.toString('utf8', 0, cut)}"`) as string;
      assert.ok(value.startsWith(prefix), `prefix at ${p}`);
      assert.ok(prefix.length >= longest, 'a later cut never decodes less');
      longest = prefix.length;
    }
  });
});

describe('ElidedText', () => {
  const line = (record: unknown): Buffer => Buffer.from(JSON.stringify(record));

  it('decodes an elided string whole, or a long one as a prefix of at least the characters asked for', () => {
    const short = 'x'.repeat(300);
    const long = `  ${TRICKY.repeat(5000)}`;
    const bytes = line({ a: short, b: long, c: 'kept' });
    const ranges = elidedRanges();
    const skeleton = parseSkeleton(bytes, 256, ranges) as Record<string, string>;
    assert.equal(skeleton.a, `${ELIDED}0`);
    assert.equal(skeleton.b, `${ELIDED}1`);
    const text = new ElidedText(bytes, ranges, 1000);
    assert.equal(text.text(skeleton.a), short);
    const b = text.text(skeleton.b) ?? '';
    assert.ok(b.length >= 1000 && b.length < long.length, `a prefix: ${b.length}`);
    assert.ok(long.startsWith(b));
    assert.equal(text.text(skeleton.c), 'kept');
    assert.equal(text.text(42), null);
    assert.equal(text.failed, false);
  });

  it('reads on when a prefix is blank once trimmed (a text that starts with whitespace is not judged by it)', () => {
    const value = `${' '.repeat(50_000)}<command-name>/clear</command-name>`;
    const bytes = line({ t: value });
    const ranges = elidedRanges();
    const skeleton = parseSkeleton(bytes, 256, ranges) as Record<string, string>;
    assert.equal(new ElidedText(bytes, ranges, 1000).text(skeleton.t), value);
  });

  it('fails (the caller parses the line whole) for a string that does not decode, or a line whose own text reads like a sentinel', () => {
    const broken = Buffer.from(`{"t":"${'y'.repeat(400)}\\x"}`);
    const r1 = elidedRanges();
    const s1 = parseSkeleton(broken, 256, r1) as Record<string, string>;
    const t1 = new ElidedText(broken, r1, 1000);
    assert.equal(t1.text(s1.t), null);
    assert.ok(t1.failed);

    const spoof = line({ name: `${ELIDED}0`, out: 'z'.repeat(400) });
    const r2 = elidedRanges();
    const s2 = parseSkeleton(spoof, 256, r2) as Record<string, string>;
    assert.ok(r2.strayNul, 'a kept string starting with U+0000 is noted');
    const t2 = new ElidedText(spoof, r2, 1000);
    assert.equal(t2.text(s2.name), null);
    assert.ok(t2.failed);
  });
});
