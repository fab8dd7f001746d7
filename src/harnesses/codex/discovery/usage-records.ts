/**
 * Usage records of a Codex rollout: one per model request, from `token_count` events (and
 * `token_usage_record`s, which repeat a request's running total). A request's tokens are its
 * `last_token_usage` when the running total advanced, else what the total grew by; it is keyed by the
 * thread and the running total after it, so the same event read twice is one record. Its model is the
 * one in force (turn_context / thread_settings_applied), so a resume with another `-m` prices each
 * turn at its own model.
 */
import type { TokenCounts } from '../../../core/session.ts';
import type { UsageRecord } from '../../../core/usage-record.ts';

export interface UsageSink {
  /** The thread id of the rollout's file name. */
  sessionId: string;
  emit(record: UsageRecord): void;
}

const KEYS = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;

/**
 * The record of a request whose running total went from `prev` to `total`; `last` is the request's
 * own usage when the event carries it. Null when nothing was spent or the time is unknown.
 */
export function requestRecord(sink: UsageSink, opts: { prev: TokenCounts; total: TokenCounts; last: TokenCounts | null; reasoning: number; model: string | null; ts: string | null }): UsageRecord | null {
  const { prev, total } = opts;
  const advanced = KEYS.some((k) => total[k] !== prev[k]);
  if (!advanced) return null;
  const restarted = KEYS.some((k) => total[k] < prev[k]);
  const t = opts.last ?? (restarted ? total : { input: total.input - prev.input, output: total.output - prev.output, cacheRead: total.cacheRead - prev.cacheRead, cacheWrite: total.cacheWrite - prev.cacheWrite });
  if (t.input + t.output + t.cacheRead + t.cacheWrite === 0) return null;
  const at = opts.ts ? Date.parse(opts.ts) : NaN;
  if (!Number.isFinite(at)) return null;
  return {
    harness: 'codex',
    key: `${sink.sessionId}:${total.input}:${total.output}:${total.cacheRead}:${total.cacheWrite}`,
    sessionId: sink.sessionId,
    rank: 0,
    at,
    model: opts.model ?? '',
    tokens: { ...t, reasoning: opts.reasoning },
    costUsd: null,
  };
}
