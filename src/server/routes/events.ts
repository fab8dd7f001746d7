/**
 * GET /api/events — Server-Sent Events. On connect: replay what the client missed since
 * `Last-Event-ID` (header, or `?lastEventId=` for clients that cannot set it) from the bus's bounded
 * buffer, then an initial `daemon.hello` event (with `resync: true` when the replay was impossible,
 * so the client refetches). A heartbeat comment every 15 s keeps proxies and clients honest.
 */
import { streamSSE } from 'hono/streaming';
import type { EventBus, MusterEvent } from '../../events/index.ts';
import type { App } from '../env.ts';

export interface EventsRouteOptions {
  bus: EventBus;
  /** Heartbeat interval in ms. Default: 15000. */
  heartbeatMs?: number;
  /** Facts for the hello event. */
  hello(): Record<string, unknown>;
  /** Registers an open stream so shutdown can end it; returns the unregister function. */
  track(close: () => void): () => void;
}

export function eventsRoutes(opts: EventsRouteOptions) {
  return (app: App) => {
    app.get('/api/events', (c) => {
      const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId');
      const lastId = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
      c.header('cache-control', 'no-store');
      c.header('x-accel-buffering', 'no');
      return streamSSE(c, async (stream) => {
        let chain: Promise<void> = Promise.resolve();
        let closed = false;
        const send = (e: MusterEvent) => {
          chain = chain.then(() => (closed ? undefined : stream.writeSSE({ id: String(e.id), event: e.type, data: JSON.stringify(e.data) }))).catch(() => undefined);
        };
        // Subscribe first, queue live events behind the replay, so nothing falls in the gap.
        const unsubscribe = opts.bus.subscribe(send);
        const replay = lastId === null ? [] : opts.bus.since(lastId);
        const resync = lastId !== null && replay === null;
        chain = chain.then(() =>
          stream.writeSSE({ event: 'daemon.hello', data: JSON.stringify({ ...opts.hello(), lastEventId: opts.bus.lastId(), resync }) }),
        );
        for (const e of replay ?? []) send(e);
        const beat = setInterval(() => {
          chain = chain.then(() => (closed ? undefined : stream.write(': heartbeat\n\n').then(() => undefined))).catch(() => undefined);
        }, opts.heartbeatMs ?? 15_000);
        beat.unref();
        await new Promise<void>((resolve) => {
          const untrack = opts.track(() => {
            void stream.close();
            resolve();
          });
          stream.onAbort(() => {
            untrack();
            resolve();
          });
        });
        closed = true;
        clearInterval(beat);
        unsubscribe();
      });
    });
  };
}
