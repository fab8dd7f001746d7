/**
 * Prompts to live sessions through their own process: the pi/omp extension and the OpenCode plugin
 * hold a long poll on the daemon (POST /api/inbox/wait) for the sessions they run, and put what it
 * returns into the session as the operator's next message (pi `sendUserMessage`, OpenCode
 * `promptAsync`). A goal resumed by a page's answer reaches its session this way; so does a prompt sent
 * from the board. Nothing is written to disk: a prompt nobody claims within its bound is withdrawn and
 * reported as undelivered to whoever sent it, never silently kept.
 */

export interface InboxPrompt {
  sessionId: string;
  /** `prm_` + a counter: for logs. */
  id: string;
  text: string;
}

export type DeliverOutcome = 'claimed' | 'no_listener' | 'timeout';

export interface InboxOptions {
  /** How long after its last poll a listener still counts as connected, ms. Default: 35000 (a poll lasts ≤ 25 s). */
  listenerTtlMs?: number;
  clock?: () => number;
}

export interface Inbox {
  /**
   * Hands `text` to the session's listener. Resolves once a poll has taken it ('claimed'), at once when
   * no listener is connected ('no_listener'), or after `timeoutMs` ('timeout'; the prompt is withdrawn).
   */
  deliver(sessionId: string, text: string, timeoutMs: number): Promise<DeliverOutcome>;
  /** A listener's poll: the prompts waiting now for any of `sessionIds`, else the first to arrive within `waitMs`, else []. */
  wait(sessionIds: readonly string[], waitMs: number, signal?: AbortSignal): Promise<InboxPrompt[]>;
  /** Whether a process is listening for the session (it polled within the listener TTL). */
  listening(sessionId: string): boolean;
  /** Resolves every open poll with [] (daemon shutdown). */
  close(): void;
}

interface Pending {
  prompt: InboxPrompt;
  claimed(): void;
}

type Poll = { ids: readonly string[]; done(p: InboxPrompt[]): void };

export function createInbox(options: InboxOptions = {}): Inbox {
  const ttl = options.listenerTtlMs ?? 35_000;
  const clock = options.clock ?? Date.now;
  const queues = new Map<string, Pending[]>();
  const polls = new Set<Poll>();
  const lastPoll = new Map<string, number>();
  let n = 0;

  const take = (ids: readonly string[]): InboxPrompt[] => {
    const out: InboxPrompt[] = [];
    for (const id of ids) {
      for (const p of queues.get(id) ?? []) {
        p.claimed();
        out.push(p.prompt);
      }
      queues.delete(id);
    }
    return out;
  };
  const seen = (ids: readonly string[]): void => {
    for (const id of ids) lastPoll.set(id, clock());
  };

  return {
    deliver(sessionId, text, timeoutMs) {
      if (!this.listening(sessionId)) return Promise.resolve('no_listener');
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          const rest = queues.get(sessionId)?.filter((p) => p !== pending) ?? [];
          if (rest.length > 0) queues.set(sessionId, rest);
          else queues.delete(sessionId);
          resolve('timeout');
        }, timeoutMs); // not unref'd: a sender waits on it, bounded by timeoutMs
        const pending: Pending = {
          prompt: { sessionId, id: `prm_${clock().toString(36)}${(n++).toString(36)}`, text },
          claimed: () => {
            clearTimeout(timer);
            resolve('claimed');
          },
        };
        queues.set(sessionId, [...(queues.get(sessionId) ?? []), pending]);
        const poll = [...polls].find((p) => p.ids.includes(sessionId));
        if (poll) poll.done(take(poll.ids));
      });
    },

    wait(sessionIds, waitMs, signal) {
      seen(sessionIds);
      const ready = take(sessionIds);
      if (ready.length > 0 || waitMs <= 0) return Promise.resolve(ready);
      return new Promise((resolve) => {
        const poll: Poll = {
          ids: sessionIds,
          done: (p) => {
            clearTimeout(timer);
            if (!polls.delete(poll)) return;
            // The listener is connected up to the end of its poll, not only from its start.
            seen(sessionIds);
            resolve(p);
          },
        };
        const timer = setTimeout(() => poll.done([]), waitMs); // bounded; a request waits on it
        polls.add(poll);
        signal?.addEventListener('abort', () => poll.done([]), { once: true });
      });
    },

    listening(sessionId) {
      if ([...polls].some((p) => p.ids.includes(sessionId))) return true;
      const at = lastPoll.get(sessionId);
      return at !== undefined && clock() - at <= ttl;
    },

    close() {
      for (const p of [...polls]) p.done([]);
    },
  };
}
