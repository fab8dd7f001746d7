// Ten `muster serve` at once, twenty rounds: exactly one serves, the nine others exit non-zero with
// an "already running (pid N)" envelope, and no staging or reclaim file is ever left behind.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { BIN, envFor, tempHome, waitExit } from './kit.ts';

const ROUNDS = Number(process.env.MUSTER_RACE_ROUNDS ?? 20);

interface Outcome { pid: number; code: number | null; stdout: string; stderr: string; kill(): void; signal(): string | null; exited: Promise<number | null> }

function startServe(env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const o: Outcome = { pid: child.pid!, code: null, stdout: '', stderr: '', kill: () => child.kill('SIGTERM'), signal: () => child.signalCode, exited: waitExit(child, 60_000) };
    child.stdout.on('data', (d: Buffer) => {
      o.stdout += d.toString();
      if (o.stdout.includes('\n')) resolve(o); // the winner printed its envelope
    });
    child.stderr.on('data', (d: Buffer) => (o.stderr += d.toString()));
    child.on('exit', (code) => {
      o.code = code;
      resolve(o);
    });
  });
}

it(`10 concurrent serve, ${ROUNDS} rounds: exactly one wins, nine report already running, nothing left over`, { timeout: 600_000 }, async () => {
  const t = tempHome();
  try {
    const env = envFor(t.home);
    for (let round = 0; round < ROUNDS; round++) {
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => startServe(env)));
      const winners = outcomes.filter((o) => o.code === null);
      const losers = outcomes.filter((o) => o.code !== null);
      assert.equal(winners.length, 1, `round ${round}: one winner (${outcomes.map((o) => o.code).join(',')}): ${losers.map((l) => l.stderr).join(' | ')}`);
      const winner = winners[0]!;
      for (const l of losers) {
        assert.notEqual(l.code, 0);
        const env = JSON.parse(l.stderr.trim().split('\n').at(-1) ?? '{}') as { ok: boolean; error: { code: string; message: string } };
        assert.equal(env.ok, false);
        assert.equal(env.error.code, 'already_running', l.stderr);
        assert.match(env.error.message, new RegExp(`already running \\(pid ${winner.pid}\\)`));
      }
      winner.kill();
      const code = await winner.exited;
      assert.equal(code, 0, `round ${round}: the winner exits cleanly on SIGTERM (signal ${winner.signal()}; stderr: ${winner.stderr.slice(-500)})`);
      const left = readdirSync(t.home).filter((f) => f.startsWith('muster.db.lock'));
      assert.deepEqual(left, [], `round ${round}: leftovers ${left.join(', ')}`);
    }
  } finally {
    t.cleanup();
  }
});
