/**
 * Usage records of a pi or omp session file: one per assistant message, keyed by the session and the
 * message entry's id, with the cost the harness recorded (`usage.cost.total`, USD) when it is above 0.
 */
import type { UsageRecord } from '../../../core/usage-record.ts';
import type { Harness } from '../../../core/session.ts';

type Obj = Record<string, unknown>;
const obj = (x: unknown): Obj | null => (typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Obj) : null);
const count = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? Math.floor(x) : 0);

/** The record of one parsed line, or null when it is not an assistant message with usage, an id and a time. */
export function messageUsageRecord(harness: Harness, sessionId: string, model: string | null, line: unknown): UsageRecord | null {
  const r = obj(line);
  if (!r || r.type !== 'message') return null;
  const m = obj(r.message);
  const u = obj(m?.usage);
  const id = typeof r.id === 'string' ? r.id : null;
  const at = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : NaN;
  if (!m || m.role !== 'assistant' || !u || id === null || !Number.isFinite(at)) return null;
  const cost = obj(u.cost)?.total;
  return {
    harness,
    key: `${sessionId}:${id}`,
    sessionId,
    rank: 0,
    at,
    model: (typeof m.model === 'string' ? m.model : null) ?? model ?? '',
    tokens: { input: count(u.input), output: count(u.output), cacheRead: count(u.cacheRead), cacheWrite: count(u.cacheWrite), reasoning: 0 },
    // pi writes 0 for a model it has no price for: that is "unknown", never $0 (the price table may know it).
    costUsd: typeof cost === 'number' && Number.isFinite(cost) && cost > 0 ? cost : null,
  };
}
