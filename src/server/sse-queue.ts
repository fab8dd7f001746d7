/**
 * What waits to be written to one SSE client, bounded. Writes go out one at a time, each awaited, so
 * a client that does not read (its socket full) holds its events here; past `maxEvents` or
 * `maxBytes` the client is dropped (`onOverflow`) and the queue let go. A dropped client reconnects
 * with Last-Event-ID and is replayed or told to resync, as after a daemon restart.
 */
/**
 * Per client, on top of what the kernel's socket buffers already hold (a few MiB on loopback):
 * 50 stalled clients cost at most ~50 MiB before they are dropped.
 */
export const SSE_QUEUE_DEFAULTS = { maxEvents: 1000, maxBytes: 1024 * 1024 };

export interface SseQueueOptions {
  /** Writes one chunk; resolves once the stream has taken it. Must not reject (failures are the stream's to report). */
  write(chunk: string): Promise<unknown>;
  /** Chunks allowed to wait. Default: 1000 (the bus's replay buffer: a client further behind must resync anyway). */
  maxEvents?: number;
  /** UTF-16 code units allowed to wait (about bytes for this ASCII-heavy JSON). Default: 1 MiB. */
  maxBytes?: number;
  /** Called once, when a push would pass a bound, with what was waiting. Nothing is written after it. */
  onOverflow(waiting: { events: number; bytes: number }): void;
}

export interface SseQueue {
  /** Queues a chunk behind the others; a no-op once closed or overflowed. */
  push(chunk: string): void;
  /** Stops writing and lets every queued chunk go. */
  close(): void;
  /** Chunks and code units waiting now (for diagnostics and tests). */
  size(): { events: number; bytes: number };
}

export function createSseQueue(opts: SseQueueOptions): SseQueue {
  const maxEvents = opts.maxEvents ?? SSE_QUEUE_DEFAULTS.maxEvents;
  const maxBytes = opts.maxBytes ?? SSE_QUEUE_DEFAULTS.maxBytes;
  let queue: string[] = [];
  let head = 0;
  let bytes = 0;
  let writing = false;
  let closed = false;

  const close = () => {
    closed = true;
    queue = [];
    head = 0;
    bytes = 0;
  };

  const pump = async () => {
    writing = true;
    while (!closed && head < queue.length) {
      const chunk = queue[head] as string;
      queue[head++] = '';
      bytes -= chunk.length;
      // Drop what was written so a long-lived, healthy stream does not keep an ever-growing array.
      if (head === queue.length || head > 1024) {
        queue = queue.slice(head);
        head = 0;
      }
      await opts.write(chunk);
    }
    writing = false;
  };

  return {
    push(chunk) {
      if (closed) return;
      const waiting = queue.length - head;
      // A single chunk larger than maxBytes still goes out when nothing else waits.
      if (waiting + 1 > maxEvents || (waiting > 0 && bytes + chunk.length > maxBytes)) {
        const dropped = { events: waiting, bytes };
        close();
        opts.onOverflow(dropped);
        return;
      }
      queue.push(chunk);
      bytes += chunk.length;
      if (!writing) void pump();
    },
    close,
    size: () => ({ events: queue.length - head, bytes }),
  };
}

/** One SSE message as hono's writeSSE writes it (data lines split on newlines). */
export function formatSse(m: { event?: string; data: string; id?: string }): string {
  const data = m.data.split(/\r\n|\r|\n/).map((l) => `data: ${l}`).join('\n');
  return `${m.event ? `event: ${m.event}\n` : ''}${data}\n${m.id !== undefined ? `id: ${m.id}\n` : ''}\n`;
}
