/**
 * Tokens of the last run of a Copilot session: the `session.usage_record`s after the last
 * `session.start` / `session.resume` of its events.jsonl (each run of `copilot -p` opens with one).
 * Only the end of the file is read, widened until that event is in the window.
 */
import { statSync } from 'node:fs';
import { readJsonlTail } from '../../discovery/jsonl/index.ts';
import { num, type Json } from '../json-lines.ts';

const FIRST_WINDOW = 256 * 1024;
const LAST_WINDOW = 64 * 1024 * 1024;

/** Tokens (input with cache reads, output, cache writes) of the last run; null when the file cannot be read. */
export function runTokens(file: string): number | null {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return null;
  }
  for (let window = FIRST_WINDOW; ; window *= 4) {
    let records: unknown[];
    try {
      records = readJsonlTail(file, window, { ignore: (head) => head.startsWith('{"type":"system.message"') });
    } catch {
      return null;
    }
    const start = records.findLastIndex((r) => {
      const t = (r as Json | null)?.type;
      return t === 'session.start' || t === 'session.resume';
    });
    if (start >= 0 || window >= size || window >= LAST_WINDOW) {
      let tokens = 0;
      for (const r of records.slice(Math.max(0, start))) {
        const rec = r as Json | null;
        if (rec?.type !== 'session.usage_record') continue;
        const u = ((rec.data as Json | undefined)?.usage ?? {}) as Json;
        // inputTokens already include the cache reads (observed), so they are not added again.
        tokens += num(u.inputTokens) + num(u.outputTokens) + num(u.cacheWriteTokens);
      }
      return tokens;
    }
  }
}
