/**
 * Local first: every change this host makes to a session, page or goal — as its own bus announces
 * it — becomes an outbox row before anything is sent. Events of one tick are queued in one SQLite
 * transaction (a first scan's thousands of sessions cost one fsync, not thousands); a crash inside
 * that tick is made good by `reconcile`, which compares what exists now with what the outbox last
 * queued, at start and after joining. Another host's records (they carry `hostId`) are never queued.
 */
import type { MusterEvent } from '../events/index.ts';
import type { Session } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';
import type { Change, OutboxRepository } from './types.ts';

export const sessionRecordKey = (s: Pick<Session, 'harness' | 'id'>): string => `${s.harness}:${s.id}`;

/** The change an event announces, or null (another host's record, or an event that changes no record). */
export function changeOf(e: MusterEvent): Change | null {
  switch (e.type) {
    case 'session.upserted':
      return e.data.session.hostId ? null : { kind: 'session', key: sessionRecordKey(e.data.session), op: 'upsert', data: e.data.session };
    case 'session.removed':
      return e.data.hostId ? null : { kind: 'session', key: sessionRecordKey(e.data), op: 'delete', data: null };
    case 'page.opened':
    case 'page.delivered':
    case 'page.answered':
    case 'page.cancelled':
    case 'page.dismissed':
    case 'page.expired':
      return e.data.hostId ? null : { kind: 'page', key: e.data.id, op: 'upsert', data: e.data };
    case 'goal.updated':
    case 'goal.settled':
      if (e.data.hostId) return null;
      if ('cleared' in e.data && e.data.cleared) return { kind: 'goal', key: e.data.sessionId, op: 'delete', data: null };
      return { kind: 'goal', key: e.data.sessionId, op: 'upsert', data: e.data };
    default:
      return null;
  }
}

export interface CaptureOptions {
  outbox: OutboxRepository;
  /** The bus (every event). */
  subscribe(listener: (e: MusterEvent) => void): () => void;
  /** Told after changes were queued (the publisher wakes). Must not throw. */
  queued(count: number): void;
  log?(line: string): void;
  /** Runs `fn` after the current tick. Default: setImmediate. */
  defer?(fn: () => void): void;
}

/** What exists now, for reconcile. A list cut short by a limit says so (its missing keys are not deletions). */
export interface CurrentRecords {
  sessions: readonly Session[];
  pages: readonly Page[];
  goals: readonly Goal[];
  /** False when `pages` / `goals` may not hold every record (then nothing of that kind is deleted). */
  completePages: boolean;
  completeGoals: boolean;
}

export interface Capture {
  /** Queues whatever differs between `now` and what the outbox last queued; returns how many changes. */
  reconcile(now: CurrentRecords): number;
  /** Writes the pending tick's changes now. */
  flush(): void;
  close(): void;
}

export function createCapture(opts: CaptureOptions): Capture {
  const defer = opts.defer ?? ((fn: () => void) => void setImmediate(fn));
  let pending: Change[] = [];
  let scheduled = false;
  let closed = false;

  const write = (changes: Change[]): number => {
    if (changes.length === 0) return 0;
    let n = 0;
    try {
      n = opts.outbox.enqueue(changes);
    } catch (e) {
      // The next reconcile (at start, or after joining again) queues what this lost.
      opts.log?.(`[fleet] could not queue ${changes.length} changes locally: ${(e as Error).message}`);
    }
    if (n > 0) opts.queued(n);
    return n;
  };
  const flush = (): void => {
    scheduled = false;
    const batch = pending;
    pending = [];
    write(batch);
  };

  const off = opts.subscribe((e) => {
    if (closed) return;
    const c = changeOf(e);
    if (!c) return;
    pending.push(c);
    if (!scheduled) {
      scheduled = true;
      defer(flush);
    }
  });

  return {
    reconcile(now) {
      flush();
      const changes: Change[] = [];
      const sessionKeys = new Set<string>();
      for (const s of now.sessions) {
        const key = sessionRecordKey(s);
        sessionKeys.add(key);
        changes.push({ kind: 'session', key, op: 'upsert', data: s });
      }
      for (const key of opts.outbox.mirroredKeys('session')) if (!sessionKeys.has(key)) changes.push({ kind: 'session', key, op: 'delete', data: null });
      const pageKeys = new Set(now.pages.map((p) => p.id));
      for (const p of now.pages) changes.push({ kind: 'page', key: p.id, op: 'upsert', data: p });
      if (now.completePages) for (const key of opts.outbox.mirroredKeys('page')) if (!pageKeys.has(key)) changes.push({ kind: 'page', key, op: 'delete', data: null });
      const goalKeys = new Set(now.goals.map((g) => g.sessionId));
      for (const g of now.goals) changes.push({ kind: 'goal', key: g.sessionId, op: 'upsert', data: g });
      if (now.completeGoals) for (const key of opts.outbox.mirroredKeys('goal')) if (!goalKeys.has(key)) changes.push({ kind: 'goal', key, op: 'delete', data: null });
      return write(changes);
    },
    flush,
    close() {
      if (closed) return;
      flush();
      closed = true;
      off();
    },
  };
}
