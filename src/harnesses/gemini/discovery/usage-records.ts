/**
 * Usage records of a Gemini CLI chat file: one per reply (`type: "gemini"`) that carries `tokens`,
 * keyed by the session and the reply's id, so a reply Gemini rewrites as it streams, or finds again in
 * the second file a `--resume` starts, is one record. Thoughts are billed as output (and also counted
 * as reasoning); cached input is a part of input, taken out as cache reads.
 */
import type { UsageRecord } from '../../../core/usage-record.ts';
import { tokensOf } from './chat-record.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

export function replyUsageRecord(sessionId: string, model: string | null, line: unknown): UsageRecord | null {
  const r = obj(line);
  const t = obj(r?.tokens);
  if (!r || r.type !== 'gemini' || !t || typeof r.id !== 'string' || typeof r.timestamp !== 'string') return null;
  const at = Date.parse(r.timestamp);
  if (!Number.isFinite(at)) return null;
  const thoughts = typeof t.thoughts === 'number' && t.thoughts > 0 ? t.thoughts : 0;
  return {
    harness: 'gemini',
    key: `${sessionId}:${r.id}`,
    sessionId,
    rank: 0,
    at,
    model: (typeof r.model === 'string' && r.model ? r.model : null) ?? model ?? '',
    tokens: { ...tokensOf(t), reasoning: thoughts },
    costUsd: null,
  };
}
