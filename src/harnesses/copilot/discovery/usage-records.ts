/**
 * Usage records of a Copilot CLI session: one per `session.usage_record` (a model call), keyed by the
 * session that made it (`accounting.sourceSessionId`) and its `usageId`, so the copies a `/fork`
 * makes are the same records and stay the parent's. `inputTokens` include the cache reads; `cost` is
 * premium requests, not dollars, so the price table prices them.
 */
import type { UsageRecord } from '../../../core/usage-record.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** The record of one parsed line of the session `fileSession`, or null when it is not a usage record. */
export function copilotUsageRecord(fileSession: string, line: unknown): UsageRecord | null {
  const r = obj(line);
  const u = obj(obj(r?.data)?.usage);
  if (!r || r.type !== 'session.usage_record' || !u) return null;
  const at = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : NaN;
  if (!Number.isFinite(at)) return null;
  const acc = obj(u.accounting);
  const owner = (str(acc?.sourceSessionId) ?? fileSession).toLowerCase();
  const id = str(acc?.usageId) ?? str(u.apiCallId) ?? str(r.id);
  if (id === null) return null;
  const cacheRead = num(u.cacheReadTokens);
  return {
    harness: 'copilot',
    key: `${owner}:${id}`,
    sessionId: owner,
    rank: owner === fileSession.toLowerCase() ? 0 : 1,
    at,
    model: str(u.model) ?? '',
    tokens: { input: Math.max(0, num(u.inputTokens) - cacheRead), output: num(u.outputTokens), cacheRead, cacheWrite: num(u.cacheWriteTokens), reasoning: 0 },
    costUsd: null,
  };
}
