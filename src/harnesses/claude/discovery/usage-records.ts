/**
 * Usage records of a Claude transcript: one per assistant record of an API message, keyed by message
 * and request id (messageKey), so the store keeps one per message however many content blocks, files
 * (a fork's copy) or reads repeat it. A record a fork copied names the session that made the request
 * (`requestSessionId`): it is ranked below the maker's own.
 */
import type { UsageRecord } from '../../../core/usage-record.ts';
import { asIsoTime, asString } from './record-fields.ts';
import type { Json } from './record-fields.ts';
import { usageOf } from './transcript-usage.ts';

export interface UsageSink {
  /** The transcript's session id (its file name): whom its own messages are counted for. */
  sessionId: string;
  emit(record: UsageRecord): void;
}

/**
 * The usage record of one assistant record, or null when it has no time to be placed at. `iso`: the
 * record's time as asIsoTime gives it, when the caller has it already.
 */
export function usageRecordOf(record: Json, message: Json, key: string, sessionId: string, iso = asIsoTime(record.timestamp)): UsageRecord | null {
  const at = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(at)) return null;
  const t = usageOf(message.usage);
  const from = asString(record.requestSessionId);
  const copied = from !== null && from !== asString(record.sessionId);
  return {
    harness: 'claude',
    key,
    sessionId,
    rank: copied ? 1 : 0,
    at,
    model: asString(message.model) ?? '',
    tokens: { ...t, reasoning: 0 },
    costUsd: null,
  };
}
