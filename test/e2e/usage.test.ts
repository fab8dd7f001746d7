// Spend through the real daemon and the built CLI: `muster usage` over Claude and Codex files on
// disk, its JSON envelope and its errors, GET /api/usage with bad input, a budget that notifies once
// (a notice page), and `usage.recorded` on SSE when a turn ends.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { BIN, envFor, runCli, sleep, splitBoardUrl, startServe, tempHome, until, waitExit } from './kit.ts';
import { assistantLine, userLine, writeTranscript } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { modelSwitchRollout, TID, writeRollout } from '../../src/harnesses/codex/discovery/rollout-fixtures.test-support.ts';

const A = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';
const now = new Date();
const iso = (minutesAgo: number): string => new Date(now.getTime() - minutesAgo * 60_000).toISOString();

interface Report { ok: boolean; by: string; tz: string; rows: { key: string; costUsd: number | null; pricedUsd: number; tokens: { input: number; output: number }; sessions: number; unpricedModels: string[] }[]; totals: { costUsd: number | null; pricedUsd: number; tokens: { input: number; output: number } } }

describe('muster usage through the daemon', () => {
  const t = tempHome('muster-e2e-usage-');
  const env = envFor(t.home, { TZ: 'UTC' });
  let daemon: ChildProcess;
  let base = '';
  let token = '';
  let file = '';

  before(async () => {
    file = writeTranscript(join(t.home, '.claude'), A, [
      userLine('fix the login bug', { sessionId: A, ts: iso(30) }),
      assistantLine({ id: 'msg_1', requestId: 'req_1', sessionId: A, input: 1000, output: 100, ts: iso(29) }),
      assistantLine({ id: 'msg_2', requestId: 'req_2', sessionId: A, model: 'fake-model', input: 50, output: 5, ts: iso(28) }),
    ]);
    writeRollout(join(t.home, '.codex'), TID, modelSwitchRollout());
    const s = await startServe(env);
    daemon = s.child;
    ({ base, token } = splitBoardUrl(s.envelope.boardUrl));
  });

  after(async () => {
    daemon.kill('SIGTERM');
    await waitExit(daemon);
    t.cleanup();
  });

  const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('muster usage --json: one envelope with rows and totals; an unknown model leaves the cost unknown with its priced part', async () => {
    const r = await runCli(['usage', '--by', 'harness', '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout) as Report;
    assert.equal(body.ok, true);
    assert.equal(body.tz, 'UTC');
    const claude = body.rows.find((x) => x.key === 'claude');
    assert.equal(claude?.costUsd, null, 'fake-model has no price: never $0');
    assert.equal(claude?.pricedUsd, (1000 * 3 + 100 * 15) / 1e6);
    assert.deepEqual(claude?.unpricedModels, ['fake-model']);
    assert.deepEqual(claude?.tokens.input, 1050);
    const codex = body.rows.find((x) => x.key === 'codex');
    assert.equal(codex?.costUsd, (100 * 1.25 + 10 * 10 + 100 * 0.25 + 10 * 2) / 1e6);
    assert.equal(body.totals.tokens.output, 125);
  });

  it('muster usage --by day --harness codex --tz: days in that zone; bad flags are usage errors', async () => {
    const r = await runCli(['usage', '--by', 'day', '--harness', 'codex', '--tz', 'Asia/Tokyo'], env);
    const body = JSON.parse(r.stdout) as Report;
    assert.equal(body.tz, 'Asia/Tokyo');
    assert.equal(body.rows.length, 1);
    const bad = await runCli(['usage', '--by', 'year'], env);
    assert.equal(bad.code, 1);
    assert.equal((JSON.parse(bad.stderr) as { error: { code: string } }).error.code, 'invalid_argument');
    const unknown = await runCli(['usage', '--top', '3'], env);
    assert.equal(unknown.code, 2);
  });

  it('a reader that goes away before the report is written (`| head`) ends the CLI quietly, with no stack trace', async () => {
    const child = spawn(process.execPath, [BIN, 'usage', '--by', 'session', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the pipe's reader is gone before the CLI has even started
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  it('GET /api/usage: 400 invalid_argument for a bad zone, date or group', async () => {
    for (const q of ['tz=Mars%2FBase', 'since=2026-13-01', 'by=year', 'split=day', 'harness=emacs']) {
      const r = await get(`/api/usage?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal((r.body.error as { code: string }).code, 'invalid_argument', q);
    }
    const ok = await get('/api/usage?by=day&split=harness&tz=UTC');
    assert.equal(ok.status, 200);
  });

  it('a new turn is published as usage.recorded and counted; crossing the daily budget opens one notice page', async () => {
    const settings = await fetch(`${base}/api/settings`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ dailyBudgetUsd: 0.01, notifyDesktop: false }) });
    assert.equal(settings.status, 200);
    const events = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    const reader = events.body!.getReader();
    let seen = '';
    const recorded = (async () => {
      const dec = new TextDecoder();
      while (!seen.includes('event: usage.recorded')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += dec.decode(value);
      }
    })();
    // The daily budget is today's spend (UTC here): the turn is stamped now, and never in the last seconds
    // of a day, which the check would count in the day after (CI once ran this at 00:00 UTC).
    const toMidnight = 86_400_000 - (Date.now() % 86_400_000);
    if (toMidnight < 15_000) await sleep(toMidnight + 100);
    appendFileSync(file, `${assistantLine({ id: 'msg_3', requestId: 'req_3', sessionId: A, input: 10_000, output: 1000, ts: new Date().toISOString() })}\n`);
    await recorded;
    await reader.cancel();
    const r = await until('the new turn counted', async () => {
      const b = (await get('/api/usage?by=session&tz=UTC')).body as unknown as Report;
      const row = b.rows.find((x) => x.key === A);
      return row && row.tokens.input === 11_050 ? row : undefined;
    });
    assert.equal(r.sessions, 1);
    const pages = await until('one budget notice', async () => {
      const p = (await get('/api/pages?kind=notice')).body.pages as { question: string }[];
      return p.length > 0 ? p : undefined;
    });
    assert.equal(pages.length, 1);
    assert.match(pages[0]?.question ?? '', /Daily budget \$0\.01 reached/);
    assert.match(pages[0]?.question ?? '', /0b8b9c36/);
  });
});
