/**
 * GET /api/events — Server-Sent Events. On connect: replay what the client missed since
 * `Last-Event-ID` (header, or `?lastEventId=` for clients that cannot set it) from the bus's bounded
 * buffer, then an initial `daemon.hello` event (with `resync: true` when the replay was impossible,
 * so the client refetches). A heartbeat comment every 15 s keeps proxies and clients honest.
 * Each client's unsent events are bounded (sse-queue.ts): one that stops reading is disconnected
 * rather than allowed to grow the daemon's memory; it reconnects and is replayed or resynced.
 */
import type { HttpBindings } from '@hono/node-server';
import { streamSSE } from 'hono/streaming';
import type { EventBus, HelloPayload, MusterEvent } from '../../events/index.ts';
import type { App } from '../env.ts';
import { createSseQueue, formatSse, SSE_QUEUE_DEFAULTS } from '../sse-queue.ts';

export interface EventsRouteOptions {
  bus: EventBus;
  /** Heartbeat interval in ms. Default: 15000. */
  heartbeatMs?: number;
  /** Events one client may have waiting before it is dropped. Default: 1000. */
  maxQueuedEvents?: number;
  /** Characters one client may have waiting before it is dropped. Default: 1 MiB. */
  maxQueuedBytes?: number;
  /** Facts for the hello event (the stream adds where the client stands). */
  hello(): Omit<HelloPayload, 'lastEventId' | 'resync'>;
  /** Registers an open stream so shutdown can end it; returns the unregister function. */
  track(close: () => void): () => void;
  /** Told when a client is dropped for not reading (a log line). */
  onDrop?(queued: { events: number; bytes: number }): void;
  /** The data to send for an event (default: its payload as published); e.g. this host's name on its own records in a fleet. */
  dataOf?(event: MusterEvent): unknown;
}

export function eventsRoutes(opts: EventsRouteOptions) {
  const maxEvents = opts.maxQueuedEvents ?? SSE_QUEUE_DEFAULTS.maxEvents;
  const maxBytes = opts.maxQueuedBytes ?? SSE_QUEUE_DEFAULTS.maxBytes;
  // Each event is serialised once and the same string queued for every client.
  const formatted = new WeakMap<MusterEvent, string>();
  const format = (e: MusterEvent): string => {
    let chunk = formatted.get(e);
    if (chunk === undefined) formatted.set(e, (chunk = formatSse({ id: String(e.id), event: e.type, data: JSON.stringify(opts.dataOf ? opts.dataOf(e) : e.data) })));
    return chunk;
  };
  return (app: App) => {
    app.get('/api/events', (c) => {
      const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId');
      const lastId = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
      // Under the Node adapter the response's socket; absent when the app is driven without one (tests).
      const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
      c.header('cache-control', 'no-store');
      c.header('x-accel-buffering', 'no');
      return streamSSE(c, async (stream) => {
        let end: () => void = () => {};
        const ended = new Promise<void>((resolve) => (end = resolve));
        const queue = createSseQueue({
          write: (chunk) => stream.write(chunk),
          maxEvents,
          maxBytes,
          onOverflow: (waiting) => {
            opts.onDrop?.(waiting);
            // Destroying the socket is the only way out: a graceful close would wait for the backlog.
            if (outgoing) outgoing.destroy();
            else stream.abort();
            end();
          },
        });
        // Subscribe first, queue live events behind the replay, so nothing falls in the gap.
        const unsubscribe = opts.bus.subscribe((e) => queue.push(format(e)));
        // A replay that would not fit the queue is a resync: replaying it would drop the client, which
        // would reconnect asking for the same replay, for ever.
        let replay = lastId === null ? [] : (opts.bus.since(lastId)?.map(format) ?? null);
        if (replay && (replay.length >= maxEvents || replay.reduce((n, c) => n + c.length, 0) >= maxBytes / 2)) replay = null;
        const resync = lastId !== null && replay === null;
        const hello: HelloPayload = { ...opts.hello(), lastEventId: opts.bus.lastId(), resync };
        queue.push(formatSse({ event: 'daemon.hello', data: JSON.stringify(hello) }));
        for (const chunk of replay ?? []) queue.push(chunk);
        const beat = setInterval(() => queue.push(': heartbeat\n\n'), opts.heartbeatMs ?? 15_000);
        beat.unref();
        const untrack = opts.track(() => {
          void stream.close();
          end();
        });
        stream.onAbort(end);
        await ended;
        untrack();
        queue.close();
        clearInterval(beat);
        unsubscribe();
      });
    });
  };
}
