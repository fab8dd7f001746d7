/**
 * The command table as a port: one host queues a command for another, the owner claims it (row locks:
 * `FOR UPDATE SKIP LOCKED`, so however many claimers run at once each command is taken exactly once),
 * runs it, and writes its answer; the caller reads the answer. Each step NOTIFYs the other side on its
 * host channel (`muster_to_<host id>`): `{ cmd: id }` to the owner, `{ done: id }` to the caller.
 * A command carries a deadline: one claimed after it is answered "too late" without being run, and a
 * caller that stops waiting withdraws a command nobody took yet, so nothing runs after its caller gave up.
 */
import type { FleetDb } from './pg-port.ts';
import type { CommandAnswer } from './types.ts';

export type CommandStatus = 'queued' | 'claimed' | 'done' | 'failed' | 'expired';

export interface ClaimedCommand {
  id: number;
  kind: string;
  /** As stored: not trusted (checked by the owner before anything runs). */
  args: unknown;
  fromHost: string;
  /** Its deadline had passed when it was claimed. */
  late: boolean;
}

export interface CommandQueue {
  /** Queues a command for `target` (which is told); returns its id. */
  submit(input: { target: string; from: string; kind: string; args: Record<string, unknown>; waitMs: number }): Promise<number>;
  /** Takes up to `limit` queued commands of `host`, oldest first; each is taken by one claimer only. */
  claim(host: string, limit: number): Promise<ClaimedCommand[]>;
  /** Writes the owner's answer to a claimed command (its caller is told). */
  complete(id: number, status: 'done' | 'failed' | 'expired', answer: CommandAnswer): Promise<void>;
  /** Withdraws a command nobody claimed yet; false when it was already claimed (or answered). */
  withdraw(id: number): Promise<boolean>;
  /** The command's status and, once answered, the answer. */
  result(id: number): Promise<{ status: CommandStatus; answer: CommandAnswer | null } | undefined>;
}

const SUBMIT_SQL = `
WITH c AS (
  INSERT INTO muster.commands (target_host, from_host, kind, args, deadline)
  VALUES ($1, $2, $3, $4::jsonb, now() + make_interval(secs => $5::float8 / 1000))
  RETURNING id
)
SELECT id, pg_notify('muster_to_' || $1, json_build_object('cmd', id)::text) FROM c`;

const CLAIM_SQL = `
UPDATE muster.commands c SET status = 'claimed', claimed_at = now()
FROM (
  SELECT id FROM muster.commands WHERE target_host = $1 AND status = 'queued' ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
) q
WHERE c.id = q.id
RETURNING c.id, c.kind, c.args, c.from_host, (c.deadline < now()) AS late`;

const COMPLETE_SQL = `
WITH u AS (
  UPDATE muster.commands SET status = $2, result = $3::jsonb, done_at = now() WHERE id = $1 AND status = 'claimed' RETURNING from_host
)
SELECT pg_notify('muster_to_' || from_host, json_build_object('done', $1::bigint)::text) FROM u`;

export function createPgCommandQueue(db: () => FleetDb): CommandQueue {
  return {
    async submit(input) {
      const rows = await db().query<{ id: string }>(SUBMIT_SQL, [input.target, input.from, input.kind, JSON.stringify(input.args), input.waitMs]);
      return Number(rows[0]?.id);
    },
    async claim(host, limit) {
      const rows = await db().query<{ id: string; kind: string; args: unknown; from_host: string; late: boolean }>(CLAIM_SQL, [host, limit]);
      return rows.map((r) => ({ id: Number(r.id), kind: r.kind, args: r.args, fromHost: r.from_host, late: r.late })).sort((a, b) => a.id - b.id);
    },
    async complete(id, status, answer) {
      await db().query(COMPLETE_SQL, [id, status, JSON.stringify(answer)]);
    },
    async withdraw(id) {
      const rows = await db().query("UPDATE muster.commands SET status = 'expired', done_at = now() WHERE id = $1 AND status = 'queued' RETURNING id", [id]);
      return rows.length > 0;
    },
    async result(id) {
      const rows = await db().query<{ status: CommandStatus; result: unknown }>('SELECT status, result FROM muster.commands WHERE id = $1', [id]);
      const r = rows[0];
      if (!r) return undefined;
      return { status: r.status, answer: isAnswer(r.result) ? r.result : null };
    },
  };
}

function isAnswer(v: unknown): v is CommandAnswer {
  return typeof v === 'object' && v !== null && typeof (v as { status?: unknown }).status === 'number' && 'body' in v;
}
