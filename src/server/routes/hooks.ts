/**
 * Hook events and launches:
 * - POST /api/hooks/:harness/:event { payload, pid?, launchId? } → { ok, sessionId, status, waitingFor, decision }
 *   (`muster hook`, the OpenCode plugin and the pi/omp extension all post here);
 * - POST /api/launches { id, harness, name, cwd, sessionId, pid } → { ok, launch } (the wrapper, before spawning);
 * - PATCH /api/launches/:id { pid?, sessionId?, exitCode? } (spawned; exited) and GET /api/launches[?running=1].
 */
import { MusterError } from '../../errors/index.ts';
import { isEventName, type HookService } from '../../hooks/index.ts';
import { HARNESSES, isHarness } from '../../harnesses/registry.ts';
import type { LaunchPatch, LaunchService } from '../../launch/index.ts';
import { readJsonObject } from '../body.ts';
import type { App } from '../env.ts';

/** 256 KiB: hook payloads are trimmed by `muster hook`, but plugins post raw bus events. */
const HOOK_BODY_LIMIT = 256 * 1024;

const optInt = (v: unknown, what: string): number | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new MusterError('invalid_body', `${what} must be a non-negative integer`);
  return v;
};

const optString = (v: unknown, what: string, max = 4096): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length > max || v.includes('\0')) throw new MusterError('invalid_body', `${what} must be a string of at most ${max} characters`);
  return v;
};

export function hookRoutes(opts: { hooks: HookService; launches: LaunchService }) {
  return (app: App) => {
    app.post('/api/hooks/:harness/:event', async (c) => {
      const harness = c.req.param('harness');
      const event = c.req.param('event');
      if (!isHarness(harness)) throw new MusterError('invalid_argument', `unknown harness '${harness}'`);
      if (!isEventName(event)) throw new MusterError('invalid_argument', 'bad event name');
      const body = await readJsonObject(c, HOOK_BODY_LIMIT);
      const payload = body.payload ?? {};
      if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw new MusterError('invalid_body', 'payload must be a JSON object');
      const answer = await opts.hooks.receive({
        harness,
        event,
        payload: payload as Record<string, unknown>,
        pid: optInt(body.pid, 'pid'),
        launchId: optString(body.launchId, 'launchId', 100),
      });
      return c.json({ ok: true, sessionId: answer.sessionId, status: answer.transition?.status ?? null, waitingFor: answer.transition?.waitingFor ?? null, decision: answer.decision });
    });

    app.post('/api/launches', async (c) => {
      const b = await readJsonObject(c);
      if (!isHarness(b.harness)) throw new MusterError('invalid_body', `harness must be one of ${HARNESSES.join(', ')}`);
      const cwd = optString(b.cwd, 'cwd');
      if (!cwd?.startsWith('/')) throw new MusterError('invalid_body', 'cwd must be an absolute path');
      const launch = await opts.launches.register({
        id: optString(b.id, 'id', 100) ?? '',
        harness: b.harness,
        name: optString(b.name, 'name', 200),
        cwd,
        sessionId: optString(b.sessionId, 'sessionId', 64),
        pid: optInt(b.pid, 'pid'),
      });
      return c.json({ ok: true, launch }, 201);
    });

    app.patch('/api/launches/:id', async (c) => {
      const b = await readJsonObject(c);
      const patch: LaunchPatch = {};
      const pid = optInt(b.pid, 'pid');
      if (pid !== null) patch.pid = pid;
      const sessionId = optString(b.sessionId, 'sessionId', 64);
      if (sessionId !== null) patch.sessionId = sessionId;
      const exitCode = optInt(b.exitCode, 'exitCode');
      if (exitCode !== null) {
        patch.exitCode = exitCode;
        patch.endedAt = new Date().toISOString();
      }
      const launch = await opts.launches.update(c.req.param('id'), patch);
      return c.json({ ok: true, launch });
    });

    app.get('/api/launches', async (c) => {
      const running = c.req.query('running');
      const launches = await opts.launches.list({ running: running === '1' || running === 'true' });
      return c.json({ ok: true, launches });
    });
  };
}
