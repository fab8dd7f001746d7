/**
 * The fleet outbox (migration 9): every change a joined host makes to its sessions, pages and goals is
 * a row here before it is published to the fleet's PostgreSQL, and leaves only once the database has
 * acknowledged it — so a host that cannot reach the database keeps working and catches up later,
 * losing nothing. `seq` is AUTOINCREMENT: never reused, so a host's changes are numbered in order for
 * good. The mirror holds a hash of what was last enqueued per record: an unchanged record is not
 * queued again (a restart re-lists every session; only real changes go out). The mirror is read once
 * into memory; writes go to both in one transaction.
 */
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { Change, OutboxEntry, OutboxRepository, RecordKind } from '../fleet/types.ts';

interface OutboxRow { seq: number; kind: string; key: string; op: string; data: string | null; at: string }

const hashOf = (json: string): string => createHash('sha1').update(json).digest('base64url');

export function createSqliteOutboxRepository(db: Database.Database, clock: () => number = Date.now): OutboxRepository {
  const insert = db.prepare('INSERT INTO fleet_outbox(kind, key, op, data, at) VALUES (?, ?, ?, ?, ?)');
  const putMirror = db.prepare('INSERT INTO fleet_mirror(kind, key, hash) VALUES (?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET hash = excluded.hash');
  const delMirror = db.prepare('DELETE FROM fleet_mirror WHERE kind = ? AND key = ?');
  const head = db.prepare<[number], OutboxRow>('SELECT seq, kind, key, op, data, at FROM fleet_outbox ORDER BY seq LIMIT ?');
  const ackUpTo = db.prepare('DELETE FROM fleet_outbox WHERE seq <= ?');
  const count = db.prepare<[], { n: number; oldest: string | null }>('SELECT count(*) AS n, min(at) AS oldest FROM fleet_outbox');
  const lastSeq = db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'fleet_outbox'");
  let mirror: Map<string, string> | null = null;
  const mkey = (kind: string, key: string) => `${kind}\u0000${key}`;
  const loadMirror = (): Map<string, string> => {
    if (mirror) return mirror;
    mirror = new Map();
    for (const r of db.prepare<[], { kind: string; key: string; hash: string }>('SELECT kind, key, hash FROM fleet_mirror').iterate()) mirror.set(mkey(r.kind, r.key), r.hash);
    return mirror;
  };

  const enqueueAll = db.transaction((changes: readonly Change[], at: string): number => {
    const m = loadMirror();
    let n = 0;
    for (const c of changes) {
      const k = mkey(c.kind, c.key);
      if (c.op === 'delete') {
        if (!m.has(k)) continue;
        insert.run(c.kind, c.key, 'delete', null, at);
        delMirror.run(c.kind, c.key);
        m.delete(k);
      } else {
        const json = JSON.stringify(c.data);
        const hash = hashOf(json);
        if (m.get(k) === hash) continue;
        insert.run(c.kind, c.key, 'upsert', json, at);
        putMirror.run(c.kind, c.key, hash);
        m.set(k, hash);
      }
      n++;
    }
    return n;
  });

  return {
    enqueue(changes) {
      if (changes.length === 0) return 0;
      try {
        return enqueueAll(changes, new Date(clock()).toISOString());
      } catch (e) {
        // The transaction rolled back: the in-memory mirror may hold what it did not commit.
        mirror = null;
        throw e;
      }
    },
    peek(limit) {
      return head.all(limit).map((r): OutboxEntry => ({ seq: r.seq, kind: r.kind as RecordKind, key: r.key, op: r.op === 'delete' ? 'delete' : 'upsert', data: r.data === null ? null : (JSON.parse(r.data) as unknown), at: r.at }));
    },
    ack(seq) {
      ackUpTo.run(seq);
    },
    mirroredKeys(kind) {
      const prefix = `${kind}\u0000`;
      return [...loadMirror().keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
    },
    stats() {
      const c = count.get();
      return { queued: c?.n ?? 0, oldestAt: c?.oldest ?? null, lastSeq: lastSeq.get()?.seq ?? 0 };
    },
    clear() {
      db.transaction(() => {
        db.prepare('DELETE FROM fleet_outbox').run();
        db.prepare('DELETE FROM fleet_mirror').run();
      })();
      mirror = new Map();
    },
  };
}
