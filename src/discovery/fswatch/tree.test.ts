import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchTree } from './index.ts';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(pred: () => boolean, ms = 2000) {
  const t0 = Date.now();
  while (!pred() && Date.now() - t0 < ms) await wait(10);
}

test('one watch per directory (not per file); events from existing and newly created subdirectories', async () => {
  const root = mkdtempSync(join(tmpdir(), 'muster-tree-'));
  try {
    mkdirSync(join(root, 'a'));
    for (let i = 0; i < 50; i++) writeFileSync(join(root, 'a', `${i}.jsonl`), '');
    const seen: (string | null)[] = [];
    const w = watchTree(root, (rel) => seen.push(rel), { maxDepth: 2 });
    assert.equal(w.size(), 2, 'root and a/, not the 50 files');
    appendFileSync(join(root, 'a', '7.jsonl'), 'x\n');
    await until(() => seen.includes(join('a', '7.jsonl')));
    assert.ok(seen.includes(join('a', '7.jsonl')));
    mkdirSync(join(root, 'b'));
    await until(() => w.size() === 3);
    writeFileSync(join(root, 'b', 'new.jsonl'), 'y\n');
    await until(() => seen.includes(join('b', 'new.jsonl')));
    assert.ok(seen.includes(join('b', 'new.jsonl')), 'a file in a directory created after the watch started');
    mkdirSync(join(root, 'b', 'c', 'd'), { recursive: true });
    await wait(100);
    assert.ok(w.size() <= 4, 'depth bounded');
    w.close();
    assert.equal(w.size(), 0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
