/**
 * The fleet's PostgreSQL schema (`muster`), created and migrated by whichever daemon arrives first.
 * Every migration runs inside one transaction that first takes a transaction-scoped advisory lock, so
 * daemons arriving at once queue on it: the first creates or upgrades, the others then find the
 * schema current. A schema newer than this build is refused, never downgraded.
 *
 * Tables:
 * - hosts:    one row per host: name, whether it takes commands, when it was last seen, the last change published.
 * - records:  each host's sessions, pages and goals as they stand (JSON), with the change number that wrote them.
 * - changes:  every change each host published, exactly once, numbered per host in the order it made them.
 * - commands: what one host asks another to run on its sessions, pages and goals, and the owner's answer.
 * Nothing secret is stored: no token of any kind, no transcript text (a session is its `ls --json` summary).
 */
import { MusterError } from '../errors/index.ts';
import type { FleetDb } from './pg-port.ts';

/** Arbitrary but fixed: the advisory lock key every Muster daemon migrates under ("muster" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x6d7573746572;

export interface FleetMigration {
  version: number;
  sql: string;
}

export const FLEET_MIGRATIONS: readonly FleetMigration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE muster.hosts (
        id text PRIMARY KEY,
        name text NOT NULL,
        accept_commands boolean NOT NULL DEFAULT true,
        version text NOT NULL,
        joined_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seq bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE muster.records (
        host_id text NOT NULL REFERENCES muster.hosts(id) ON DELETE CASCADE,
        kind text NOT NULL,
        key text NOT NULL,
        seq bigint NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (host_id, kind, key)
      );
      CREATE TABLE muster.changes (
        host_id text NOT NULL REFERENCES muster.hosts(id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        kind text NOT NULL,
        key text NOT NULL,
        op text NOT NULL,
        data jsonb,
        at timestamptz NOT NULL,
        published_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (host_id, seq)
      );
      CREATE INDEX changes_published ON muster.changes (published_at);
      CREATE TABLE muster.commands (
        id bigserial PRIMARY KEY,
        target_host text NOT NULL,
        from_host text NOT NULL,
        kind text NOT NULL,
        args jsonb NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        result jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        deadline timestamptz NOT NULL,
        claimed_at timestamptz,
        done_at timestamptz
      );
      CREATE INDEX commands_queued ON muster.commands (target_host, id) WHERE status = 'queued';
      CREATE INDEX commands_done ON muster.commands (done_at) WHERE done_at IS NOT NULL;
    `,
  },
];

export const FLEET_SCHEMA_VERSION = Math.max(...FLEET_MIGRATIONS.map((m) => m.version));

/** Creates or upgrades the schema; returns the version reached. Safe when several daemons call it at once. */
export async function migrateFleetSchema(db: FleetDb, migrations: readonly FleetMigration[] = FLEET_MIGRATIONS): Promise<number> {
  const latest = Math.max(...migrations.map((m) => m.version));
  return db.transaction(async (q) => {
    await q('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await q('CREATE SCHEMA IF NOT EXISTS muster');
    await q('CREATE TABLE IF NOT EXISTS muster.meta (key text PRIMARY KEY, value text NOT NULL)');
    const rows = await q<{ value: string }>("SELECT value FROM muster.meta WHERE key = 'schema_version'");
    const current = rows[0] ? Number(rows[0].value) : 0;
    if (current > latest) {
      throw new MusterError('fleet_schema', `the fleet database has schema ${current}, newer than this Muster understands (${latest}); upgrade Muster on this host`);
    }
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (m.version <= current) continue;
      await q(m.sql);
      await q("INSERT INTO muster.meta(key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [String(m.version)]);
    }
    return latest;
  });
}
