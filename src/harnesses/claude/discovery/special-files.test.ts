// Regression (issue 13, point 1): a FIFO named like a registry entry froze the daemon in open().
// Every place the Claude source reads — registry entries, transcripts, the cwd's .git/HEAD, the
// watcher's peek at a changed entry — meets a FIFO, a socket and a /dev/zero link: it answers at
// once (the unblocker would only free a blocked open after 2 s) and counts each refusal.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { makeSpecialFile, SPECIAL_KINDS, startFifoUnblocker, timed } from '../../../../test/fakes/special-files.ts';
import type { SourceChange } from '../../../discovery/contract.ts';
import { createClaudeSource } from './source.ts';
import { SID, tempHome, userLine, writeTranscript } from './claude-fixtures.test-support.ts';
import { cwdToSlug } from './slug.ts';

const BAD_IDS = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
/** A blocked open is freed only after this; anything slower than half of it blocked. */
const UNBLOCK_MS = 2000;

describe('claude source: never blocks on a FIFO, socket or device', () => {
  const homes: string[] = [];
  const stops: Array<() => void> = [];
  after(() => {
    for (const s of stops) s();
    for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
  });

  for (const kind of SPECIAL_KINDS) {
    it(`a ${kind} in every read location is skipped promptly and counted`, async () => {
      const home = tempHome();
      homes.push(home);
      // The session's cwd is a repository whose .git/HEAD is the hostile entry.
      const repo = path.join(home, 'repo');
      fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
      makeSpecialFile(path.join(repo, '.git', 'HEAD'), kind);
      writeTranscript(home, SID, [userLine('still listed', { cwd: repo, branch: 'HEAD' })], repo);
      makeSpecialFile(path.join(home, 'sessions', '999999.json'), kind);
      for (const id of BAD_IDS) makeSpecialFile(path.join(home, 'projects', cwdToSlug(repo), `${id}.jsonl`), kind);
      const unblocker = startFifoUnblocker(home, UNBLOCK_MS);
      stops.push(unblocker.stop);
      const source = createClaudeSource({ home, proc: createFakeProc(), tornRetryMs: 5 });

      const { value: list, ms } = await timed(() => source.list());
      assert.ok(ms < UNBLOCK_MS / 2, `list() took ${Math.round(ms)} ms`);
      assert.deepEqual(list.map((s) => s.id), [SID]);
      assert.equal(list[0]?.repoRoot, repo, 'the repository is still found');
      assert.equal(list[0]?.branch, null, 'a HEAD that is not a file gives no branch');
      // A link to /dev/zero named like a transcript is refused as a link leading outside the home.
      const d = source.diagnostics();
      const outside = d.errors.filter((e) => e.includes('leads outside')).length;
      assert.equal(d.notRegularFiles + outside, 3, `the registry entry and both transcripts: ${d.errors.join('; ')}`);

      const got = await timed(async () => [await source.get(BAD_IDS[0] ?? ''), await source.tail?.(BAD_IDS[0] ?? '', 5)]);
      assert.ok(got.ms < UNBLOCK_MS / 2, `get() and tail() took ${Math.round(got.ms)} ms`);
      assert.deepEqual(got.value, [undefined, []]);
      unblocker.stop();
    });
  }

  it('the watcher does not block on a FIFO that appears named like a registry entry', async () => {
    const home = tempHome();
    homes.push(home);
    fs.mkdirSync(path.join(home, 'sessions'));
    const unblocker = startFifoUnblocker(home, UNBLOCK_MS);
    stops.push(unblocker.stop);
    const source = createClaudeSource({ home, proc: createFakeProc(), debounceMs: 10 });
    const changes: SourceChange[] = [];
    const dispose = source.watch((c) => changes.push(c));
    try {
      await new Promise((r) => setTimeout(r, 50));
      const t0 = performance.now();
      makeSpecialFile(path.join(home, 'sessions', '999999.json'), 'fifo');
      while (changes.length === 0 && performance.now() - t0 < 3 * UNBLOCK_MS) await new Promise((r) => setTimeout(r, 10));
      const ms = performance.now() - t0;
      assert.ok(changes.length > 0, 'the change was reported');
      assert.ok(ms < UNBLOCK_MS / 2, `reported after ${Math.round(ms)} ms`);
    } finally {
      await dispose();
      unblocker.stop();
    }
  });
});
