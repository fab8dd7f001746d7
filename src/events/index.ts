/**
 * The typed event bus behind SSE. Events are named `domain.noun.verb` (STYLE habit 8) and get a
 * monotonically increasing id; a bounded ring buffer lets a reconnecting client replay what it missed
 * (`Last-Event-ID`). When the id it names has left the buffer, the caller learns it must resync.
 */
export interface MusterEvent {
  id: number;
  type: string;
  /** ISO time the event was published. */
  at: string;
  data: unknown;
}

export type EventListener = (event: MusterEvent) => void;

export interface EventBus {
  publish(type: string, data: unknown): MusterEvent;
  subscribe(listener: EventListener): () => void;
  /** Events after `lastId`, or null when some of them were already dropped from the buffer. */
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

  return {
    publish(type, data) {
      const event: MusterEvent = { id: next++, type, at: new Date(clock()).toISOString(), data };
      ring.push(event);
      if (ring.length > size) ring.shift();
      for (const l of [...listeners]) {
        try {
          l(event);
        } catch {
          // A failing listener (e.g. a closed SSE stream) must not stop the others.
        }
      }
      return event;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    since(lastId) {
      if (lastId >= next - 1) return [];
      const first = ring[0];
      if (!first || first.id > lastId + 1) return null;
      return ring.filter((e) => e.id > lastId);
    },
    lastId: () => next - 1,
    listenerCount: () => listeners.size,
  };
}
