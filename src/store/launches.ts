/**
 * Launch records (migration 5): one row per `muster <harness>` run, so hook events and pages that
 * carry a launch id map to the right session even before the harness has told its session id.
 */
import type Database from 'better-sqlite3';
import type { LaunchesRepository, LaunchRecord } from '../launch/types.ts';

interface LaunchRow {
  id: string;
  harness: string;
  name: string | null;
  pid: number | null;
  started_at: string;
  cwd: string;
  session_id: string | null;
  ended_at: string | null;
  exit_code: number | null;
}

const toRecord = (r: LaunchRow): LaunchRecord => ({
  id: r.id,
  harness: r.harness as LaunchRecord['harness'],
  name: r.name,
  pid: r.pid,
  startedAt: r.started_at,
  cwd: r.cwd,
  sessionId: r.session_id,
  endedAt: r.ended_at,
  exitCode: r.exit_code,
});

export function createSqliteLaunchesRepository(db: Database.Database): LaunchesRepository {
  const insert = db.prepare(`INSERT INTO launches (id, harness, name, pid, started_at, cwd, session_id, ended_at, exit_code)
    VALUES (@id, @harness, @name, @pid, @started_at, @cwd, @session_id, @ended_at, @exit_code)`);
  const getOne = db.prepare<[string], LaunchRow>('SELECT * FROM launches WHERE id = ?');
  // COALESCE keeps what a patch does not name; a session id, once known, is never overwritten.
  const patch = db.prepare(`UPDATE launches SET pid = COALESCE(@pid, pid), session_id = COALESCE(session_id, @session_id),
    ended_at = COALESCE(@ended_at, ended_at), exit_code = COALESCE(@exit_code, exit_code) WHERE id = @id`);
  const recent = db.prepare<[number], LaunchRow>('SELECT * FROM launches ORDER BY id DESC LIMIT ?');
  const running = db.prepare<[number], LaunchRow>('SELECT * FROM launches WHERE ended_at IS NULL ORDER BY id DESC LIMIT ?');
  return {
    async insert(r) {
      insert.run({ id: r.id, harness: r.harness, name: r.name, pid: r.pid, started_at: r.startedAt, cwd: r.cwd, session_id: r.sessionId, ended_at: r.endedAt, exit_code: r.exitCode });
    },
    async update(id, p) {
      patch.run({ id, pid: p.pid ?? null, session_id: p.sessionId ?? null, ended_at: p.endedAt ?? null, exit_code: p.exitCode ?? null });
      const r = getOne.get(id);
      return r ? toRecord(r) : undefined;
    },
    async get(id) {
      const r = getOne.get(id);
      return r ? toRecord(r) : undefined;
    },
    async list(filter = {}) {
      const limit = Math.min(Math.max(1, Math.trunc(filter.limit ?? 100)), 1000);
      return (filter.running ? running : recent).all(limit).map(toRecord);
    },
  };
}
