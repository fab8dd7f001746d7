/**
 * The pager: agents open pages (questions, notices), the operator answers or dismisses them, and a
 * waiting tool call gets the answer. Every step is a store row first and an event second, so a
 * restart or a client timeout never loses a question or an answer.
 */
import { MusterError } from '../errors/index.ts';
import type { EventBus, PageEventType } from '../events/index.ts';
import { isPageId, newPageId } from './page-id.ts';
import { checkAnswer, checkAsk, checkNotify } from './validate.ts';
import { createWaiters } from './waiters.ts';
import type { Attribution, Page, PageFilter, PageKind, PagesRepository } from './types.ts';

export interface PagerSettings {
  /** Bound of one ask/await wait, seconds. */
  askWaitSeconds: number;
  pageExpiryHours: number;
  maxPendingPerSession: number;
}

export interface PagerOptions {
  repo: PagesRepository;
  bus: EventBus;
  /** Read fresh at each decision, so a settings change applies to the next call. */
  settings(): Promise<PagerSettings>;
  /** Called once a page is stored (the notifier hangs here). Must not throw. */
  onOpened?(page: Page): void;
  clock?: () => number;
  /**
   * The longest wait between two expiry checks while a page is pending, ms. Default: 300000. The
   * timer is armed for the earliest expiry; this bound re-reads it after a suspend (timers run on the
   * monotonic clock, expiries on the wall clock). With nothing pending no timer runs.
   */
  expiryRecheckMs?: number;
  log?(line: string): void;
}

/** Who is calling: the attribution of the session, and a key to count limits by when none is known. */
export interface Caller {
  attribution: Attribution;
  /** Limit key when neither session nor launch id is known (e.g. `mcp:<mcp-session-id>`). */
  fallbackKey: string;
}

export type WaitOutcome =
  | { status: 'answered'; pageId: string; answer: string; choice: number | null }
  | { status: 'pending'; pageId: string }
  | { status: 'cancelled' | 'expired' | 'dismissed'; pageId: string };

export interface WaitOptions {
  /** Requested bound in ms; capped at the askWaitSeconds setting. Default: that setting. */
  waitMs?: number;
  signal?: AbortSignal;
}

export interface Pager {
  ask(input: Record<string, unknown>, caller: Caller): Promise<Page>;
  notify(input: Record<string, unknown>, caller: Caller): Promise<Page>;
  /** Bounded wait for an answer; returns it (marking the page delivered) or `pending`. */
  wait(pageId: string, options?: WaitOptions): Promise<WaitOutcome>;
  /** The agent withdraws its question. */
  cancel(pageId: string): Promise<Page>;
  answer(pageId: string, input: Record<string, unknown>, by?: string): Promise<Page>;
  dismiss(pageId: string): Promise<Page>;
  get(pageId: string): Promise<Page>;
  list(filter?: PageFilter): Promise<Page[]>;
  /** Last known counts by `kind.status`, plus `pending`, `expiredUndecided` and `waiting`. Sync for /api/status. */
  counts(): Record<string, number>;
  /** Expires what is due and arms the expiry timer (for the earliest pending page); returns its disposer. */
  start(): () => void;
  /** Wakes every waiter (they return `pending`) and stops the expiry timer. Idempotent. */
  close(): void;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export function createPager(opts: PagerOptions): Pager {
  const clock = opts.clock ?? Date.now;
  const log = opts.log ?? (() => {});
  const { repo, bus } = opts;
  const waiters = createWaiters();
  const limitChains = new Map<string, Promise<unknown>>();
  let counts: Record<string, number> = {};
  let expiry: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (ms since epoch); Infinity when none is armed. */
  let expiryAt = Infinity;
  let started = false;
  let closed = false;
  const iso = (ms = clock()) => new Date(ms).toISOString();

  // Coalesced: at most one count query in flight, one more queued, however many pages change.
  let counting: Promise<void> | undefined;
  let recount = false;
  const refreshCounts = async (): Promise<void> => {
    if (counting) {
      recount = true;
      return counting;
    }
    counting = countNow().finally(() => {
      counting = undefined;
      if (recount) {
        recount = false;
        void refreshCounts();
      }
    });
    return counting;
  };
  const countNow = async () => {
    try {
      const c = await repo.counts();
      const pending = (c['question.pending'] ?? 0) + (c['notice.pending'] ?? 0);
      counts = { ...c, pending, expiredUndecided: (c['question.expired'] ?? 0) + (c['notice.expired'] ?? 0), waiting: waiters.size() };
    } catch (e) {
      log(`[pager] counts failed: ${(e as Error).message}`);
    }
  };
  const publish = (type: PageEventType, page: Page) => {
    bus.publish(type, page);
    void refreshCounts();
  };

  async function mustGet(pageId: string): Promise<Page> {
    if (!isPageId(pageId)) throw new MusterError('invalid_id', 'not a page id (pag_ followed by 26 letters and digits)');
    const page = await repo.get(pageId);
    if (!page) throw new MusterError('page_not_found', `no page ${pageId}`);
    return page;
  }

  /** Serialises count-then-insert per limit key so concurrent asks cannot overshoot the limit. */
  function underLimit<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = limitChains.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    limitChains.set(key, tail);
    void tail.then(() => limitChains.get(key) === tail && limitChains.delete(key));
    return next;
  }

  async function open(kind: PageKind, caller: Caller, fields: Pick<Page, 'question' | 'choices' | 'urgency' | 'level' | 'context'>): Promise<Page> {
    const a = caller.attribution;
    const limitKey = a.sessionId ?? (a.launchId ? `launch:${a.launchId}` : caller.fallbackKey);
    return underLimit(limitKey, async () => {
      const s = await opts.settings();
      const n = await repo.countPending(limitKey, kind);
      if (n >= s.maxPendingPerSession) {
        throw new MusterError('too_many_pending', `this session already has ${n} pending ${kind}s (limit ${s.maxPendingPerSession}); wait for answers, or cancel_page the ones no longer needed`);
      }
      const now = clock();
      const expiresMs = now + s.pageExpiryHours * 3600 * SECOND;
      const page: Page = {
        id: newPageId(now), kind, sessionId: a.sessionId, harness: a.harness, attribution: a, limitKey, ...fields,
        status: 'pending', answer: null, createdAt: iso(now), answeredAt: null, deliveredAt: null, closedAt: null, closedBy: null,
        expiresAt: iso(expiresMs), deliveries: [],
      };
      await repo.insert(page);
      armAt(expiresMs);
      publish('page.opened', page);
      opts.onOpened?.(page);
      return page;
    });
  }

  async function markDelivered(pageId: string): Promise<void> {
    try {
      const t = await repo.markDelivered(pageId, iso());
      if (t.changed && t.page) publish('page.delivered', t.page);
    } catch (e) {
      // The answer stays `answered` and is handed out again by the next wait: nothing is lost.
      log(`[pager] cannot mark ${pageId} delivered: ${(e as Error).message}`);
    }
  }

  async function settle(page: Page): Promise<WaitOutcome> {
    // The answer is already committed; recording its delivery (a synchronous fsync) waits until the
    // result is on its way, so it stays off the answer → tool-result path.
    if (page.status === 'answered') setImmediate(() => void markDelivered(page.id));
    if ((page.status === 'answered' || page.status === 'delivered') && page.answer) {
      return { status: 'answered', pageId: page.id, answer: page.answer.text, choice: page.answer.choice };
    }
    if (page.status === 'pending') return { status: 'pending', pageId: page.id };
    return { status: page.status as 'cancelled' | 'expired' | 'dismissed', pageId: page.id };
  }

  async function closePage(pageId: string, status: 'cancelled' | 'dismissed', by: string): Promise<Page> {
    const before = await mustGet(pageId);
    const t = await repo.close(pageId, status, by, iso());
    if (!t.changed || !t.page) {
      const now = t.page ?? before;
      throw new MusterError('page_closed', `page ${pageId} is already ${now.status}; only a pending page can be ${status}`);
    }
    publish(`page.${status}`, t.page);
    waiters.wake(pageId);
    return t.page;
  }

  async function expireDue(): Promise<void> {
    try {
      for (const page of await repo.expireDue(iso())) {
        publish('page.expired', page);
        waiters.wake(page.id);
      }
    } catch (e) {
      log(`[pager] expiry sweep failed: ${(e as Error).message}`);
    }
  }

  /** The expiry timer: set for `dueMs` (never later than the recheck bound), replacing a later one. */
  function armAt(dueMs: number): void {
    if (!started || closed) return;
    const at = Math.min(dueMs, clock() + (opts.expiryRecheckMs ?? 5 * MINUTE));
    if (expiry && at >= expiryAt) return;
    clearTimeout(expiry);
    expiryAt = at;
    expiry = setTimeout(() => {
      expiry = undefined;
      expiryAt = Infinity;
      void expireThenArm();
    }, Math.max(0, at - clock()));
    expiry.unref?.();
  }

  /** Expires what is due, then arms the timer for the next pending page (none pending: no timer). */
  async function expireThenArm(): Promise<void> {
    await expireDue();
    try {
      const next = await repo.nextExpiry();
      if (next !== null) armAt(Date.parse(next));
    } catch (e) {
      log(`[pager] cannot read the next expiry: ${(e as Error).message}`);
      armAt(clock() + MINUTE);
    }
  }

  return {
    async ask(input, caller) {
      const c = checkAsk(input);
      if (!c.ok) throw new MusterError('invalid_argument', c.message);
      const v = c.value;
      return open('question', caller, { question: v.question, choices: v.choices ?? null, urgency: v.urgency ?? 'normal', level: null, context: v.context ?? null });
    },
    async notify(input, caller) {
      const c = checkNotify(input);
      if (!c.ok) throw new MusterError('invalid_argument', c.message);
      const urgency = c.value.level === 'error' ? 'high' : 'normal';
      return open('notice', caller, { question: c.value.message, choices: null, urgency, level: c.value.level, context: null });
    },
    async wait(pageId, options = {}) {
      const s = await opts.settings();
      const bound = s.askWaitSeconds * SECOND;
      const ms = Math.max(0, Math.min(options.waitMs ?? bound, bound));
      // Register first, then read: an answer committed in between still wakes us.
      const w = waiters.wait(pageId, closed ? 0 : ms, options.signal);
      try {
        let page = await mustGet(pageId);
        if (page.kind !== 'question') throw new MusterError('invalid_argument', `${pageId} is a notice; notices have no answer to wait for`);
        if (page.status === 'pending' && !closed) {
          await w.woken;
          page = (await repo.get(pageId)) ?? page;
        }
        return await settle(page);
      } finally {
        w.cancel();
      }
    },
    cancel: (pageId) => closePage(pageId, 'cancelled', 'agent'),
    dismiss: (pageId) => closePage(pageId, 'dismissed', 'operator'),
    async answer(pageId, input, by = 'operator') {
      const before = await mustGet(pageId);
      if (before.kind !== 'question') throw new MusterError('invalid_argument', `${pageId} is a notice; dismiss it instead`);
      const c = checkAnswer(input, before.choices);
      if (!c.ok) throw new MusterError('invalid_argument', c.message);
      const t = await repo.answer(pageId, { ...c.value, by }, iso());
      if (!t.changed || !t.page) {
        const now = t.page ?? before;
        if (now.status === 'answered' || now.status === 'delivered') throw new MusterError('page_already_answered', `page ${pageId} was already answered`);
        throw new MusterError('page_closed', `page ${pageId} is ${now.status}; it can no longer be answered`);
      }
      // Committed above; only now wake the waiting call.
      publish('page.answered', t.page);
      waiters.wake(pageId);
      return t.page;
    },
    get: mustGet,
    list: (filter) => repo.list(filter),
    counts: () => ({ ...counts, waiting: waiters.size() }),
    start() {
      started = true;
      void refreshCounts();
      void expireThenArm();
      return () => {
        started = false;
        clearTimeout(expiry);
        expiry = undefined;
        expiryAt = Infinity;
      };
    },
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(expiry);
      waiters.wakeAll();
    },
  };
}
