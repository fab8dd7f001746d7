/**
 * Core routes: health (the one public route: only the service identity, which the CLI checks
 * before trusting a lock record), status, settings, and the reserved /mcp mount point.
 */
import { MusterError } from '../../errors/index.ts';
import type { Store } from '../../store/index.ts';
import type { EventBus } from '../../events/index.ts';
import { readJsonObject } from '../body.ts';
import type { App } from '../env.ts';

export interface ServiceIdentity {
  service: 'muster';
  serviceProtocolVersion: number;
  protocolVersion: number;
  buildId: string;
  pid: number;
}

export interface CoreRouteOptions {
  identity: ServiceIdentity;
  store: Store;
  /** Settings changes are published as settings.updated. */
  bus?: EventBus;
  startedAtMs: number;
  clock?: () => number;
  /** Counts shown by /api/status (sessions, pages...), filled in by the composition root. */
  counts(): Record<string, number>;
  /** The cold indexes' progress, shown by /api/status. Default: none shown. */
  indexing?(): unknown;
  /** Mount MCP at /mcp; without it /mcp answers 501 behind the same checks. */
  mcpMounted?: boolean;
}

export function coreRoutes(opts: CoreRouteOptions) {
  const clock = opts.clock ?? Date.now;
  return (app: App) => {
    app.get('/api/health', (c) => c.json({ ok: true, ...opts.identity }));
    app.get('/api/status', (c) =>
      c.json({
        ok: true,
        ...opts.identity,
        startedAt: new Date(opts.startedAtMs).toISOString(),
        uptimeSeconds: Math.round((clock() - opts.startedAtMs) / 1000),
        store: { kind: opts.store.kind, schemaVersion: opts.store.schemaVersion },
        counts: opts.counts(),
        ...(opts.indexing ? { indexing: opts.indexing() } : {}),
      }),
    );
    app.get('/api/settings', async (c) => c.json({ ok: true, settings: await opts.store.settings.all() }));
    app.post('/api/settings', async (c) => {
      const body = await readJsonObject(c);
      const settings = await opts.store.settings.update(body);
      opts.bus?.publish('settings.updated', settings);
      return c.json({ ok: true, settings });
    });
    if (!opts.mcpMounted) {
      app.all('/mcp', () => {
        throw new MusterError('unsupported', 'the MCP endpoint is not available in this build');
      });
    }
  };
}
