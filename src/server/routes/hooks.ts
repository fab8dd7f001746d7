/**
 * Hook events and launches:
 * - POST /api/hooks/:harness/:event { payload, pid?, launchId? } → { ok, sessionId, status, waitingFor, decision }
 *   (`muster hook`, the OpenCode plugin and the pi/omp extension all post here);
 * - POST /api/launches { id, harness, name, cwd, sessionId, pid } → { ok, launch } (the wrapper, before spawning);
 * - PATCH /api/launches/:id { pid?, sessionId?, exitCode? } (spawned; exited) and GET /api/launches[?running=1].
 */
import { MusterError } from '../../errors/index.ts';
import { isEventName, type HookService } from '../../hooks/index.ts';
import type { LaunchPatch, LaunchService } from '../../launch/index.ts';
import { readJsonObject } from '../body.ts';
import { harnessIn, optAbsolutePath, optInteger, optString } from '../input.ts';
import type { App } from '../env.ts';

/** 256 KiB: hook payloads are trimmed by `muster hook`, but plugins post raw bus events. */
const HOOK_BODY_LIMIT = 256 * 1024;

export function hookRoutes(opts: { hooks: HookService; launches: LaunchService }) {
  return (app: App) => {
    app.post('/api/hooks/:harness/:event', async (c) => {
      const harness = harnessIn(c.req.param('harness'), 'invalid_argument');
      const event = c.req.param('event');
      if (!isEventName(event)) throw new MusterError('invalid_argument', 'bad event name');
      const body = await readJsonObject(c, HOOK_BODY_LIMIT);
      const payload = body.payload ?? {};
      if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw new MusterError('invalid_body', 'payload must be a JSON object');
      const answer = await opts.hooks.receive({
        harness,
        event,
        payload: payload as Record<string, unknown>,
        pid: optInteger(body.pid, 'pid') ?? null,
        launchId: optString(body.launchId, 'launchId', 100) ?? null,
      });
      return c.json({ ok: true, sessionId: answer.sessionId, status: answer.transition?.status ?? null, waitingFor: answer.transition?.waitingFor ?? null, decision: answer.decision });
    });

    app.post('/api/launches', async (c) => {
      const b = await readJsonObject(c);
      const harness = harnessIn(b.harness);
      const cwd = optAbsolutePath(b.cwd, 'cwd');
      if (cwd === undefined) throw new MusterError('invalid_body', 'cwd must be an absolute path');
      const launch = await opts.launches.register({
        id: optString(b.id, 'id', 100) ?? '',
        harness,
        name: optString(b.name, 'name', 200) ?? null,
        cwd,
        sessionId: optString(b.sessionId, 'sessionId', 64) ?? null,
        pid: optInteger(b.pid, 'pid') ?? null,
      });
      return c.json({ ok: true, launch }, 201);
    });

    app.patch('/api/launches/:id', async (c) => {
      const b = await readJsonObject(c);
      const patch: LaunchPatch = {};
      const pid = optInteger(b.pid, 'pid');
      if (pid !== undefined) patch.pid = pid;
      const sessionId = optString(b.sessionId, 'sessionId', 64);
      if (sessionId !== undefined) patch.sessionId = sessionId;
      const exitCode = optInteger(b.exitCode, 'exitCode');
      if (exitCode !== undefined) {
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
