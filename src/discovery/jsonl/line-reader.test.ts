import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLinesFrom } from './index.ts';

let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'muster-lines-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

function linesOf(path: string): string[] {
  const out: string[] = [];
  readLinesFrom(path, 0, { line: (b) => void out.push(b.toString()), oversize: () => {} });
  return out;
}

describe('readLinesFrom: one read buffer for every file', () => {
  it('reading file after file allocates its buffer once (a fresh one per file costs its page faults each time)', (t) => {
    const files = Array.from({ length: 20 }, (_, i) => {
      const p = join(dir, `f${i}.jsonl`);
      writeFileSync(p, `${'x'.repeat(3000 + i)}\n{"i":${i}}\n`);
      return p;
    });
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, `${'y'.repeat(200_000)}\n`);
    linesOf(big); // the buffer kept from here on holds every file below
    const alloc = t.mock.method(Buffer, 'allocUnsafe');
    for (const [i, p] of files.entries()) assert.deepEqual(linesOf(p), ['x'.repeat(3000 + i), `{"i":${i}}`]);
    assert.equal(alloc.mock.callCount(), 0);
  });

  it('a read inside another read\'s callback gets a buffer of its own, and both read right', () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, 'a1\na2\n');
    writeFileSync(b, 'b1\nb2\n');
    const seen: string[] = [];
    readLinesFrom(a, 0, {
      line(bytes) {
        seen.push(bytes.toString());
        seen.push(...linesOf(b));
        seen.push(bytes.toString()); // the outer view is still intact
      },
      oversize: () => {},
    });
    assert.deepEqual(seen, ['a1', 'b1', 'b2', 'a1', 'a2', 'b1', 'b2', 'a2']);
  });
});
