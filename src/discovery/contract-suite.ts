/**
 * The shared contract suite every SessionSource passes (STYLE habit 7).
 * A source's own test file calls `runSourceContract` with a fixture factory that prepares a temp
 * harness home holding at least one dormant session (and optionally a live one) and returns the source.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionSource } from './contract.ts';
import { STATUSES, HARNESSES } from '../core/session.ts';
import { isSessionIdFor } from './ids.ts';

export interface ContractFixture {
  source: SessionSource;
  /** Id of a dormant session the fixture created. */
  dormantId: string;
  /** Id of a live session, when the fixture can make one (a real child process). */
  liveId?: string;
  /** Removes temp dirs, kills children. */
  cleanup(): Promise<void>;
}

export function runSourceContract(name: string, makeFixture: () => Promise<ContractFixture>): void {
  describe(`source contract: ${name}`, () => {
    let fx: ContractFixture | undefined;
    const fixture = async (): Promise<ContractFixture> => (fx ??= await makeFixture());
    after(async () => { await fx?.cleanup(); });

    it('lists sessions in the normalised shape', async () => {
      const { source } = await fixture();
      const sessions = await source.list();
      assert.ok(sessions.length >= 1, 'at least the fixture session');
      for (const s of sessions) {
        assert.ok(HARNESSES.includes(s.harness));
        assert.equal(s.harness, source.harness);
        assert.ok(isSessionIdFor(s.harness, s.id), `id ${s.id} has the harness format`);
        assert.ok(STATUSES.includes(s.status));
        assert.equal(typeof s.title, 'string');
        assert.equal(typeof s.live, 'boolean');
        if (!s.live) {
          // Dormant is `ended`, except a reply whose process died mid-turn: `stuck`, with that cause,
          // until a live process owns the session again (issue: "stuck (cause: its process died) unless
          // a live process owns it").
          if (s.status === 'stuck') assert.ok(s.waitingFor, `a dormant stuck session ${s.id} names its cause`);
          else assert.equal(s.status, 'ended', 'a dormant session is ended, or stuck with a cause');
          assert.equal(s.canEnd, false, 'a dormant session cannot be ended');
          assert.equal(s.pid, null, 'a dormant session has no pid');
        }
        for (const k of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) {
          assert.ok(Number.isFinite(s.tokens[k]) && s.tokens[k] >= 0, `tokens.${k}`);
        }
        if (s.resumeArgv) assert.ok(Array.isArray(s.resumeArgv) && s.resumeArgv.every((a) => typeof a === 'string'));
        assert.ok(Array.isArray(s.prLinks));
      }
    });

    it('gets a dormant session by id, and unknown ids are undefined', async () => {
      const { source, dormantId } = await fixture();
      const s = await source.get(dormantId);
      assert.ok(s, 'dormant session found');
      assert.equal(s.id, dormantId);
      assert.equal(s.live, false);
      const unknown = source.harness === 'opencode' ? 'ses_zzzzzzzzzzzzzzzzzzzzzzzzzz' : '00000000-0000-4000-8000-000000000000';
      assert.equal(await source.get(unknown), undefined);
    });

    it('refuses ids of the wrong format', async () => {
      const { source } = await fixture();
      for (const bad of ['$(touch /tmp/x)', '../../etc', 'ses_' + 'a'.repeat(25), '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10\n', '']) {
        assert.equal(source.isValidId(bad), false, JSON.stringify(bad));
      }
    });

    it('gives a resume argv for a dormant session, never a shell string', async () => {
      const { source, dormantId } = await fixture();
      const argv = source.resumeArgv(dormantId);
      assert.ok(argv && argv.length >= 2, 'argv array');
      assert.ok(argv.includes(dormantId) || argv.some((a) => a.includes(dormantId)), 'names the session');
    });

    it('does not end a dormant session', async () => {
      const { source, dormantId } = await fixture();
      const r = await source.end(dormantId);
      assert.notEqual(r.outcome, 'ended');
    });

    it('watch returns a disposer that stops notifications', async () => {
      const { source } = await fixture();
      const dispose = source.watch(() => {});
      assert.equal(typeof dispose, 'function');
      await dispose();
    });

    it('reports diagnostics counters', async () => {
      const { source } = await fixture();
      const d = source.diagnostics();
      assert.equal(d.harness, source.harness);
      for (const k of ['filesScanned', 'filesSkipped', 'linesParsed', 'linesSkipped'] as const) assert.ok(Number.isInteger(d[k]) && d[k] >= 0);
    });

    it('a live session, when the fixture has one, is live with a pid', async (t) => {
      const { source, liveId } = await fixture();
      if (!liveId) { t.skip('fixture has no live session'); return; }
      const s = await source.get(liveId);
      assert.ok(s?.live, 'live');
      assert.ok(s.pid && s.pid > 0);
      assert.notEqual(s.status, 'ended');
    });
  });
}
