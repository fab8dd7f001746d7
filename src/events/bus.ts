/**
 * The event bus behind SSE, typed by the catalogue (catalogue.ts). Events get a monotonically
 * increasing id; a bounded ring buffer lets a reconnecting client replay what it missed
 * (`Last-Event-ID`). When the id it names has left the buffer, the caller learns it must resync.
 */
import type { EventPayload, EventType, MusterEvent } from './catalogue.ts';

export type EventListener = (event: MusterEvent) => void;

export interface EventBus {
  publish<K extends EventType>(type: K, data: EventPayload<K>): MusterEvent<K>;
  /** Every event (the SSE stream): narrow on `event.type` to read `event.data`. */
  subscribe(listener: EventListener): () => void;
  /** Events of one name. */
  on<K extends EventType>(type: K, listener: (event: MusterEvent<K>) => void): () => void;
  /**
   * Events after `lastId`, or null when some of them were already dropped from the buffer, or when
   * `lastId` is past this bus's last id (a client of an earlier daemon: this one's ids started again).
   */
  since(lastId: number): MusterEvent[] | null;
  lastId(): number;
  listenerCount(): number;
}

export interface EventBusOptions {
  /** Events kept for replay. Default: 1000. */
  bufferSize?: number;
  clock?: () => number;
}

export function createEventBus(options: EventBusOptions = {}): EventBus {
  const size = options.bufferSize ?? 1000;
  const clock = options.clock ?? Date.now;
  const ring: MusterEvent[] = [];
  const listeners = new Set<EventListener>();
  let next = 1;

  const subscribe = (listener: EventListener) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };

  return {
    publish(type, data) {
      // TypeScript does not relate a generic `type` to its `data`; publish's signature already did.
      const event = { id: next++, type, at: new Date(clock()).toISOString(), data } as MusterEvent;
      ring.push(event);
      if (ring.length > size) ring.shift();
      for (const l of [...listeners]) {
        try {
          l(event);
        } catch {
          // A failing listener (e.g. a closed SSE stream) must not stop the others.
        }
      }
      return event as MusterEvent<typeof type>;
    },
    subscribe,
    on(type, listener) {
      return subscribe((e) => {
        if (e.type === type) listener(e as MusterEvent<typeof type>);
      });
    },
    since(lastId) {
      if (lastId > next - 1) return null;
      if (lastId === next - 1) return [];
      const first = ring[0];
      if (!first || first.id > lastId + 1) return null;
      return ring.filter((e) => e.id > lastId);
    },
    lastId: () => next - 1,
    listenerCount: () => listeners.size,
  };
}
