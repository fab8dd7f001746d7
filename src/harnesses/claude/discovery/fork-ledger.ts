/**
 * The API messages of one transcript in file order (key, model, usage) and its cost-state
 * checkpoints: what forks.ts compares between transcripts that share history. Only transcripts that
 * share a first message with another are ever read this way (forks are rare), so ledgers live in
 * memory, not in the persisted summaries; each is extended from its last offset as the file grows.
 */
import fs from 'node:fs';
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import type { TokenCounts } from '../../../core/session.ts';
import { asNumber, asObject, asString } from './record-fields.ts';
import { ignoreTranscriptLine, messageKey } from './transcript.ts';
import { usageOf } from './transcript-usage.ts';

export interface LedgerMessage {
  key: string;
  model: string;
  /** The message's usage; a repeat of the message (one record per content block) keeps the largest. */
  usage: TokenCounts;
}

export interface CostCheckpoint {
  /** How many messages of the ledger came before this cost-state record. */
  after: number;
  /** The cost-state's `startTime` group (see transcript-usage.ts). */
  group: string;
  totalUsd: number;
}

export interface Ledger {
  messages: LedgerMessage[];
  /** Message key → index in `messages`. */
  position: Map<string, number>;
  costs: CostCheckpoint[];
}

export interface LedgerCache {
  /** The ledger of `path` as the file is now; null when it cannot be read. Never throws. */
  of(path: string): Ledger | null;
  /** Forgets the ledgers not asked for since the last sweep (transcripts no longer in a family). */
  sweep(): void;
  /** How many times `of` has answered null so far (a file that could not be read). */
  misses(): number;
}

interface Entry { size: number; mtimeMs: number; offset: number; ledger: Ledger; used: boolean }

const KEYS = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;

function emptyLedger(): Ledger {
  return { messages: [], position: new Map(), costs: [] };
}

function apply(l: Ledger, raw: unknown): void {
  const record = asObject(raw);
  if (!record) return;
  if (record.type === 'cost-state') {
    const total = asNumber(record.totalCostUSD);
    if (total !== null && total >= 0) l.costs.push({ after: l.messages.length, group: String(asNumber(record.startTime) ?? 'unknown'), totalUsd: total });
    return;
  }
  if (record.type !== 'assistant') return;
  const message = asObject(record.message);
  const model = message ? asString(message.model) : null;
  // Synthetic messages are made up locally and never counted (transcript.ts).
  if (!message || model === '<synthetic>') return;
  const key = messageKey(record, message);
  if (key === null) return;
  const usage = usageOf(message.usage);
  const at = l.position.get(key);
  const seen = at === undefined ? undefined : l.messages[at];
  if (seen) {
    for (const k of KEYS) seen.usage[k] = Math.max(seen.usage[k], usage[k]);
    return;
  }
  l.position.set(key, l.messages.length);
  l.messages.push({ key, model: model ?? 'unknown', usage });
}

export function createLedgerCache(options: { maxLineBytes?: number } = {}): LedgerCache {
  const cache = new Map<string, Entry>();
  let misses = 0;
  const miss = (): null => {
    misses++;
    return null;
  };
  return {
    misses: () => misses,
    of(path) {
      let st: fs.Stats;
      try {
        st = fs.statSync(path);
      } catch {
        return miss();
      }
      if (!st.isFile()) return miss();
      const prev = cache.get(path);
      if (prev && prev.size === st.size && prev.mtimeMs === st.mtimeMs) {
        prev.used = true;
        return prev.ledger;
      }
      // A file that shrank or went back in time was rewritten: start over.
      const resume = prev !== undefined && st.size >= prev.offset && st.mtimeMs >= prev.mtimeMs;
      const ledger = resume ? prev.ledger : emptyLedger();
      try {
        const r = readJsonlFrom(path, resume ? prev.offset : 0, (rec) => apply(ledger, rec), {
          ignore: ignoreTranscriptLine,
          maxLineBytes: options.maxLineBytes ?? 8 * 1024 * 1024,
        });
        cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, offset: r.offset, ledger, used: true });
        return ledger;
      } catch {
        cache.delete(path);
        return miss();
      }
    },
    sweep() {
      for (const [p, e] of cache) {
        if (e.used) e.used = false;
        else cache.delete(p);
      }
    },
  };
}
