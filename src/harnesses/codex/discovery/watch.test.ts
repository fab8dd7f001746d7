import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceChange } from '../../../discovery/contract.ts';
import { watchCodexHome } from './watch.ts';

const root = mkdtempSync(join(tmpdir(), 'muster-codex-watch-'));
after(() => rmSync(root, { recursive: true, force: true }));
const ID = '01a22b39-94a8-7390-a4d1-3b90055e3b40';

/** Waits until `pred` holds, polling every 20 ms, at most `ms`. */
async function until(pred: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) { if (pred()) return true; await new Promise((r) => setTimeout(r, 20)); }
  return pred();
}

describe('codex watch', () => {
  it('sees a rollout written under a sessions/ tree that did not exist yet, names its id, and stops when disposed', async () => {
    const home = join(root, 'home-a');
    mkdirSync(home);
    const changes: SourceChange[] = [];
    const dispose = watchCodexHome(home, (c) => changes.push(c));
    mkdirSync(join(home, 'sessions'));
    assert.ok(await until(() => changes.length > 0), 'sessions/ appearing is a change');
    const day = join(home, 'sessions', '2026', '11', '30');
    mkdirSync(day, { recursive: true });
    await new Promise((r) => setTimeout(r, 100));
    changes.length = 0;
    writeFileSync(join(day, `rollout-2026-11-30T06-52-03-${ID}.jsonl`), '{}\n');
    assert.ok(await until(() => changes.some((c) => c.ids.includes(ID))), `got ${JSON.stringify(changes)}`);
    assert.ok(changes.every((c) => c.harness === 'codex'));
    await dispose();
    changes.length = 0;
    writeFileSync(join(day, `rollout-2026-11-30T06-52-04-${ID}.jsonl`), '{}\n');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(changes.length, 0, 'no callback after dispose');
  });

  it('reports lock files by thread id, ignores churning logs, and tolerates a missing CODEX_HOME', async () => {
    const home = join(root, 'home-b');
    const changes: SourceChange[] = [];
    const dispose = watchCodexHome(home, (c) => changes.push(c));
    mkdirSync(join(home, 'thread-writer-locks'), { recursive: true });
    await until(() => changes.length > 0, 1000);
    await new Promise((r) => setTimeout(r, 150));
    changes.length = 0;
    writeFileSync(join(home, 'logs_2.sqlite'), 'x');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(changes.length, 0, 'logs_2.sqlite is noise');
    writeFileSync(join(home, 'thread-writer-locks', `${ID}.lock`), '');
    assert.ok(await until(() => changes.some((c) => c.ids.includes(ID))), `got ${JSON.stringify(changes)}`);
    await dispose();
  });
});
