/**
 * The fleet's shapes: what a host publishes (records of three kinds, each change numbered by the
 * host's outbox), what other hosts learn about it (name, liveness, whether it takes commands), and
 * the commands one host may ask another to run. The PostgreSQL side and the SQLite outbox implement
 * the ports declared here.
 */

/** What a host mirrors to the fleet: its sessions (the `ls --json` summary), pages and goals. */
export const RECORD_KINDS = ['session', 'page', 'goal'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** One change of one record, in the order the host made them. */
export interface Change {
  kind: RecordKind;
  /** Sessions: `harness:id`; pages: the page id; goals: the session id (one goal per session). */
  key: string;
  op: 'upsert' | 'delete';
  /** The whole record after the change; null for a delete. */
  data: unknown;
}

/** A change as the outbox holds it: numbered (contiguous per host, in order) and timed. */
export interface OutboxEntry extends Change {
  seq: number;
  /** ISO time the change was written locally. */
  at: string;
}

/**
 * The local outbox (SQLite): changes are written here first, then published. A mirror of what was
 * last enqueued per record keeps a record that did not change from being queued again.
 */
export interface OutboxRepository {
  /**
   * Appends the changes that differ from what was last enqueued for their record (an upsert equal to
   * it, or a delete of a record never enqueued, is skipped), in one transaction. Returns how many.
   */
  enqueue(changes: readonly Change[]): number;
  /** The oldest `limit` entries, in order. */
  peek(limit: number): OutboxEntry[];
  /** Removes every entry up to and including `seq` (published and acknowledged). */
  ack(seq: number): void;
  /** Keys of every record of `kind` the mirror holds (what the fleet was last told exists). */
  mirroredKeys(kind: RecordKind): string[];
  stats(): { queued: number; oldestAt: string | null; lastSeq: number };
  /** Forgets everything: queue and mirror (leaving the fleet). */
  clear(): void;
}

/** A host as another host sees it. */
export interface FleetHost {
  id: string;
  name: string;
  /** Heard from (heartbeat or change) within the silence limit, by this host's clock. */
  reachable: boolean;
  /** Whether it runs commands from other hosts (fleetAcceptCommands). */
  acceptCommands: boolean;
  /** ISO time it was last heard from (estimated from the database's clock after a reconnect). */
  lastSeenAt: string | null;
  /** Sessions it has published. */
  sessions: number;
  /** True for this host itself. */
  self: boolean;
}

/** Commands one host may run on another's sessions, pages and goals; nothing else crosses. */
export const COMMAND_KINDS = ['page.answer', 'page.dismiss', 'goal.set', 'goal.pause', 'goal.resume', 'goal.clear', 'session.end', 'session.resume', 'session.send'] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

export const isCommandKind = (v: unknown): v is CommandKind => (COMMAND_KINDS as readonly unknown[]).includes(v);

/** The owner's answer to a command: the HTTP status and JSON body its own API gave. */
export interface CommandAnswer {
  status: number;
  body: unknown;
}

/** Host ids: `hst_` and 26 lower-case letters and digits (safe inside a LISTEN channel name). */
export const HOST_ID_RE = /^hst_[a-z0-9]{26}$/;
export const isHostId = (v: unknown): v is string => typeof v === 'string' && HOST_ID_RE.test(v);

/** A host name: 1–64 printable characters, no control characters. */
export function isHostName(v: unknown): v is string {
  // eslint-disable-next-line no-control-regex -- control characters have no place in a name shown everywhere
  return typeof v === 'string' && v.trim() === v && v.length >= 1 && v.length <= 64 && !/[\u0000-\u001f\u007f]/.test(v);
}
