import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { watchDirs } from './dir-watch.ts';
import { idFromFileName } from './session-files.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-pi-watch-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
const ID = '01a22b3e-7108-72cf-96ba-1191d1508086';
const idOf = (rel: string) => idFromFileName(path.basename(rel));

/** Resolves with the first onChange batch that satisfies `pred`, or rejects after 5 s. */
function nextChange(batches: string[][], pred: (ids: string[]) => boolean): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = setInterval(() => {
      const hit = batches.find(pred);
      if (hit) { clearInterval(tick); resolve(hit); }
      else if (Date.now() - started > 5000) { clearInterval(tick); reject(new Error(`no matching change; saw ${JSON.stringify(batches)}`)); }
    }, 20);
  });
}

describe('directory watching', () => {
  it('waits for a sessions directory that does not exist yet, then reports session ids in nested files', async () => {
    const sessions = path.join(tmp, 'a', 'agent', 'sessions');
    const batches: string[][] = [];
    const dispose = watchDirs([sessions], (ids) => batches.push(ids), { idOf });
    try {
      fs.mkdirSync(path.join(sessions, '--home-dev-p--'), { recursive: true });
      await nextChange(batches, (ids) => ids.length === 0);
      await new Promise((r) => setTimeout(r, 100));
      fs.writeFileSync(path.join(sessions, '--home-dev-p--', `2026-11-30T06-57-22-185Z_${ID}.jsonl`), '{}\n');
      assert.deepEqual(await nextChange(batches, (ids) => ids.includes(ID)), [ID]);
    } finally {
      await dispose();
    }
  });

  it('coalesces a burst into one call and stays silent after dispose', async () => {
    const dir = path.join(tmp, 'b');
    fs.mkdirSync(dir);
    const batches: string[][] = [];
    const dispose = watchDirs([dir], (ids) => batches.push(ids), { idOf, debounceMs: 100 });
    for (let i = 0; i < 5; i++) fs.appendFileSync(path.join(dir, `x_${ID}.jsonl`), 'line\n');
    await nextChange(batches, (ids) => ids.includes(ID));
    assert.equal(batches.length, 1);
    await dispose();
    fs.appendFileSync(path.join(dir, `x_${ID}.jsonl`), 'more\n');
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(batches.length, 1);
  });
});
