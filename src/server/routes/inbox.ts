/**
 * POST /api/inbox/wait — the long poll of a session's in-process reporter (pi/omp extension, OpenCode
 * plugin): `{ harness, sessionIds: [...], seconds? }` → `{ ok, prompts: [{ sessionId, id, text }] }`,
 * at once when prompts are waiting, else when one arrives, else empty after `seconds` (≤ 25).
 */
import { MusterError } from '../../errors/index.ts';
import type { Inbox } from '../../inbox/index.ts';
import { isHarness, isSessionIdFor } from '../../harnesses/registry.ts';
import { readJsonObject } from '../body.ts';
import type { App } from '../env.ts';

/** Longest poll, seconds: below the daemon's request timeout and any proxy's idle cut. */
const MAX_WAIT_S = 25;
/** Sessions one poll may listen for (a TUI shows a few). */
const MAX_SESSIONS = 8;

export function inboxRoutes(opts: { inbox: Inbox }) {
  return (app: App) => {
    app.post('/api/inbox/wait', async (c) => {
      const b = await readJsonObject(c);
      if (!isHarness(b.harness)) throw new MusterError('invalid_body', 'harness must be a known harness');
      const harness = b.harness;
      const ids = b.sessionIds;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_SESSIONS || !ids.every((id) => typeof id === 'string' && isSessionIdFor(harness, id))) {
        throw new MusterError('invalid_body', `sessionIds must be 1 to ${MAX_SESSIONS} ${harness} session ids`);
      }
      const seconds = b.seconds === undefined ? MAX_WAIT_S : Number(b.seconds);
      if (!Number.isFinite(seconds) || seconds < 0) throw new MusterError('invalid_body', 'seconds must be a number of seconds');
      const prompts = await opts.inbox.wait(ids as string[], Math.min(seconds, MAX_WAIT_S) * 1000, c.req.raw.signal);
      return c.json({ ok: true, prompts });
    });
  };
}
