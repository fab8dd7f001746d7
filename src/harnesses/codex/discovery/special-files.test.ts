// Regression (issue 13, point 1): a FIFO at $CODEX_HOME/session_index.jsonl froze the daemon in
// open(). Every place the Codex source reads — rollouts (live and archived), the name index, both
// SQLite stores (also a side file), thread-writer locks — meets a FIFO, a socket and a /dev/zero
// link: list() and goal() answer at once and every refusal is counted.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { makeSpecialFile, SPECIAL_KINDS, startFifoUnblocker, timed } from '../../../../test/fakes/special-files.ts';
import { createCodexSource } from './source.ts';
import { makeCodexHome } from './source-helpers.test-support.ts';
import { execRollout, writeRollout } from './rollout-fixtures.test-support.ts';

const A = '01a22b39-94a8-7390-a4d1-3b90055e3b40';
const BAD = ['01a22b42-6e14-7f62-8c74-d16f2d172825', '01a22b4e-c5a5-74f1-abfa-b0a168462396'];
const UNBLOCK_MS = 2000;
const rolloutName = (id: string): string => `rollout-2026-11-30T06-52-03-${id}.jsonl`;

describe('codex source: never blocks on a FIFO, socket or device', () => {
  const cleanups: Array<() => void> = [];
  after(() => { for (const c of cleanups) c(); });

  for (const kind of SPECIAL_KINDS) {
    it(`a ${kind} in every read location is skipped promptly and counted`, async () => {
      const { home, cleanup } = makeCodexHome();
      cleanups.push(cleanup);
      writeRollout(home, A, execRollout(A));
      makeSpecialFile(join(home, 'sessions', '2026', '11', '30', rolloutName(BAD[0] ?? '')), kind);
      makeSpecialFile(join(home, 'archived_sessions', rolloutName(BAD[1] ?? '')), kind);
      makeSpecialFile(join(home, 'session_index.jsonl'), kind);
      makeSpecialFile(join(home, 'state_5.sqlite'), kind);
      // A real goals store whose WAL is the hostile entry: SQLite would open it blocking.
      new Database(join(home, 'goals_1.sqlite')).exec('CREATE TABLE thread_goals (thread_id TEXT, objective TEXT)').close();
      makeSpecialFile(join(home, 'goals_1.sqlite-wal'), kind);
      makeSpecialFile(join(home, 'thread-writer-locks', `${BAD[0]}.lock`), kind);
      const unblocker = startFifoUnblocker(home, UNBLOCK_MS);
      cleanups.push(unblocker.stop);
      const src = createCodexSource({ home, proc: createFakeProc(), withDaemon: () => Promise.reject(new Error('no daemon')) });

      const { value, ms } = await timed(async () => ({ list: await src.list(), goal: src.goal(A) }));
      assert.ok(ms < UNBLOCK_MS / 2, `list() and goal() took ${Math.round(ms)} ms`);
      assert.deepEqual(value.list.map((s) => s.id), [A]);
      assert.equal(value.goal, null);
      const d = src.diagnostics();
      // A link to /dev/zero named like a rollout is refused as a link leading outside the home.
      const outside = d.errors.filter((e) => e.includes('leads outside')).length;
      assert.equal(d.notRegularFiles + outside, 6, `two rollouts, the index, two stores, a lock: ${d.errors.join('; ')}`);
      assert.ok(d.filesSkipped >= 6);
      unblocker.stop();
    });
  }
});
