/**
 * Issue 17: a first start on a long history shows its progress. The real daemon (built CLI) on a
 * Claude home of 640 transcripts (ten batches of 64), with the cold index paced (MUSTER_INDEX_PACE_MS:
 * a batch per worker every 1.5 s) so a figure can be seen between batches: `muster status` says
 * "indexed n / 640 transcripts" while it reads, `muster ls` (after waiting its 2 s) lists the sessions
 * read so far, and once it is over the figure is gone and every session is listed; then search's
 * messages and the usage records, read again once the listing is complete, are counted down, found
 * and reported.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { envFor, runCli, sleep, startServe, tempHome, waitExit } from './kit.ts';
import { assistantLine, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

const N = 640;
const id = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** `n` transcripts of one prompt and one reply (100 input tokens) under `home`'s Claude dir. */
function writeTasks(home: string, n: number): void {
  const claudeHome = join(home, '.claude');
  for (let i = 0; i < n; i++) {
    writeTranscript(claudeHome, id(i), [
      userLine(`task ${i}`, { sessionId: id(i), ts: '2026-11-30T06:52:53.501Z' }),
      assistantLine({ id: `m${i}`, requestId: `r${i}`, input: 100, output: 10, sessionId: id(i), ts: '2026-11-30T06:52:54.000Z' }),
    ], `/home/dev/p${i % 7}`);
  }
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child) return;
  child.kill('SIGTERM');
  await waitExit(child).catch(() => child.kill('SIGKILL'));
}

describe('cold index progress (issue 17)', () => {
  const t = tempHome('muster-e2e-cold-');
  let env: NodeJS.ProcessEnv;
  let child: ChildProcess | undefined;

  before(() => {
    writeTasks(t.home, N);
    // Any history is cold (no byte threshold); a batch (at most 64 files) every 1.5 s per worker.
    env = envFor(t.home, { MUSTER_INDEX_COLD_BYTES: '0', MUSTER_INDEX_PACE_MS: '1500' });
  });
  after(async () => {
    await stop(child);
    t.cleanup();
  });

  it('muster status shows "indexed n / N transcripts" while it reads; ls lists what is read; then all, and no figure', async () => {
    child = (await startServe(env)).child;
    const seen: number[] = [];
    let listedMeanwhile: number | null = null;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const s = await runCli(['status'], env);
      assert.equal(s.code, 0, s.stderr);
      assert.equal(s.json.running, true);
      const progress = s.json.progress as string | undefined;
      if (progress === undefined) {
        assert.equal((s.json.indexing as { active?: boolean } | undefined)?.active ?? false, false, 'no figure only when no index is running');
        break;
      }
      const m = /^indexed (\d+) \/ (\d+) transcripts$/.exec(progress);
      assert.ok(m, progress);
      assert.equal(Number(m[2]), N);
      seen.push(Number(m[1]));
      if (listedMeanwhile === null && Number(m[1]) > 0 && Number(m[1]) < N / 2) {
        const asked = Date.now();
        const ls = await runCli(['ls', '--json'], env);
        const waited = Date.now() - asked;
        const body = ls.json as unknown as { sessions: unknown[]; indexing: { active: boolean } };
        if (body.indexing.active) {
          // The index still runs: ls waited its 2 s for it (the daemon held the listing) before listing what is read.
          assert.ok(waited >= 1900, `ls answered after ${waited} ms, without waiting for the index`);
          listedMeanwhile = body.sessions.length;
        }
      }
      assert.ok(Date.now() < deadline, `the cold index did not end within 60 s (last figures: ${seen.slice(-5).join(', ')})`);
      await sleep(100);
    }
    assert.ok(seen.some((n) => n < N), `a figure below ${N} was seen while reading (${seen.join(', ')})`);
    assert.ok(seen.every((n, i) => i === 0 || n >= seen[i - 1]!), `the figure only grows (${seen.join(', ')})`);
    assert.ok(listedMeanwhile !== null && listedMeanwhile < N, `ls during the index lists what is read so far (${listedMeanwhile})`);
    const ls = await runCli(['ls', '--json'], env);
    const body = ls.json as unknown as { sessions: { tokens: { input: number } }[]; indexing: { active: boolean; done: number; total: number } };
    assert.equal(body.sessions.length, N);
    assert.deepEqual({ active: body.indexing.active, done: body.indexing.done, total: body.indexing.total }, { active: false, done: N, total: N });
    assert.equal(body.sessions.reduce((n, s) => n + s.tokens.input, 0), N * 100);
    // What was read is written after the reading: `writing` counts it down to 0.
    let writing: unknown;
    for (const until = Date.now() + 10_000; Date.now() < until; await sleep(50)) {
      writing = ((await runCli(['status'], env)).json.indexing as { writing?: unknown } | undefined)?.writing;
      if (writing === 0) break;
    }
    assert.equal(writing, 0, 'every row read is written within 10 s');
    // Search's messages come in a second read once the listing is complete: `searching` counts it down.
    let searching: unknown;
    for (const until = Date.now() + 20_000; Date.now() < until; await sleep(50)) {
      searching = ((await runCli(['status'], env)).json.indexing as { searching?: unknown } | undefined)?.searching;
      if (searching === 0) break;
    }
    assert.equal(searching, 0, 'every transcript is in the search index within 20 s');
    const found = await runCli(['search', '"task 17"', '--json'], env);
    assert.equal(found.code, 0, found.stderr);
    const results = found.json.results as { session: { id: string } }[];
    assert.deepEqual(results.map((r) => r.session.id), [id(17)]);
    // The usage records came with that read: the report counts every message once.
    for (const until = Date.now() + 10_000; Date.now() < until; await sleep(50)) {
      if (((await runCli(['status'], env)).json.indexing as { writing?: unknown } | undefined)?.writing === 0) break;
    }
    const usage = await runCli(['usage', '--since', '2026-11-01', '--json'], env);
    assert.equal(usage.code, 0, usage.stderr);
    const totals = usage.json.totals as { tokens: { input: number }; messages: number; sessions: number };
    assert.deepEqual({ input: totals.tokens.input, messages: totals.messages, sessions: totals.sessions }, { input: N * 100, messages: N, sessions: N });
  });
});

describe('a listing asked for at the start of a cold index waits for it (issue 17)', () => {
  const t = tempHome('muster-e2e-cold-wait-');
  // Twelve batches of 64, a reader resting 300 ms between two: the index runs for a while on any
  // machine of up to eleven cores (this one has two: about 2 s).
  const M = 768;
  let env: NodeJS.ProcessEnv;
  let child: ChildProcess | undefined;

  before(() => {
    writeTasks(t.home, M);
    env = envFor(t.home, { MUSTER_INDEX_COLD_BYTES: '0', MUSTER_INDEX_PACE_MS: '300' });
  });
  after(async () => {
    await stop(child);
    t.cleanup();
  });

  it('GET /api/sessions?waitIndexMs holds the request while the index runs and answers with every session', async () => {
    const started = await startServe(env);
    child = started.child;
    const url = new URL(started.envelope.boardUrl);
    const headers = { authorization: `Bearer ${url.searchParams.get('token')}` };
    const held = fetch(`${url.origin}/api/sessions?waitIndexMs=60000`, { headers }).then(async (r) => ({ status: r.status, body: (await r.json()) as { sessions: unknown[]; indexing: { active: boolean; done: number } } }));
    let answered = false;
    void held.then(() => (answered = true));
    const during = (await (await fetch(`${url.origin}/api/status`, { headers })).json()) as { indexing: { active: boolean } };
    assert.deepEqual({ active: during.indexing.active, answered }, { active: true, answered: false }, 'the listing is held while the index runs');
    const { status, body } = await held;
    assert.equal(status, 200);
    assert.deepEqual({ listed: body.sessions.length, active: body.indexing.active, done: body.indexing.done }, { listed: M, active: false, done: M });
  });
});
