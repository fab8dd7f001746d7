/**
 * In-memory registry of tool calls waiting on a page. It only *wakes* waiters; the answer itself is
 * always read back from the store, so a waiter registered after a restart (or after the answer) still
 * finds it. Register before reading the store, then read: no answer can fall between the two.
 */
export interface Waiters {
  /**
   * Resolves true when woken, false when `ms` passed or `signal` aborted. The timer is kept referenced:
   * a caller is awaiting it (wakeAll() at shutdown clears every one).
   */
  wait(pageId: string, ms: number, signal?: AbortSignal): { woken: Promise<boolean>; cancel(): void };
  /** Wakes every waiter of `pageId`. */
  wake(pageId: string): void;
  /** Wakes everyone (shutdown). */
  wakeAll(): void;
  size(): number;
}

export function createWaiters(): Waiters {
  const byPage = new Map<string, Set<(woken: boolean) => void>>();
  let count = 0;
  return {
    wait(pageId, ms, signal) {
      let settle!: (woken: boolean) => void;
      const woken = new Promise<boolean>((resolve) => {
        let done = false;
        const timer = setTimeout(() => settle(false), Math.max(0, ms));
        const onAbort = () => settle(false);
        settle = (w: boolean) => {
          if (done) return;
          done = true;
          count--;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          const set = byPage.get(pageId);
          set?.delete(settle);
          if (set?.size === 0) byPage.delete(pageId);
          resolve(w);
        };
        count++;
        const set = byPage.get(pageId) ?? new Set();
        set.add(settle);
        byPage.set(pageId, set);
        if (signal?.aborted) settle(false);
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
      return { woken, cancel: () => settle(false) };
    },
    wake(pageId) {
      for (const s of [...(byPage.get(pageId) ?? [])]) s(true);
    },
    wakeAll() {
      for (const set of [...byPage.values()]) for (const s of [...set]) s(true);
    },
    size: () => count,
  };
}
