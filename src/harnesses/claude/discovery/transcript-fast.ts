/**
 * The cold index's first pass over a Claude transcript (a summary, no usage records, no messages) with
 * its line loop in WebAssembly (discovery/json-scan). The records that make up most lines — assistant
 * messages, system records and, once the first prompt is known, user records whose message cannot hold
 * a PR link — come back clean with the fields `applyRecord` reads, which are put in a small record and
 * applied as a parsed line would be; every other line is folded by `foldTranscriptLine`, as before. So
 * the summary and the counts are exactly a JavaScript fold's, with no JSON.parse for most lines.
 */
import { lazyLineScanner } from '../../../discovery/json-scan/index.ts';
import type { LineFolds, ScanVisitor } from '../../../discovery/json-scan/index.ts';
import { applyRecord } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import type { LineCounts } from './transcript-lines.ts';

/** The keys `applyRecord` reads from assistant, system and user records (path i is node i + 1). */
const PATHS = [
  ['type'], ['timestamp'], ['sessionId'], ['cwd'], ['gitBranch'], ['requestId'], ['requestSessionId'],
  ['message'], ['message', 'model'], ['message', 'id'],
  ['message', 'usage'], ['message', 'usage', 'input_tokens'], ['message', 'usage', 'output_tokens'],
  ['message', 'usage', 'cache_read_input_tokens'], ['message', 'usage', 'cache_creation_input_tokens'],
] as const;
const MESSAGE = 8;
const TYPES = ['assistant', 'system', 'user'] as const;
const USER = 2;
/** What every github.com link's bytes hold (transcript-lines.ts: PR links are looked for in user records). */
const GITHUB = Buffer.from('hub.com');

/** What the fast fold needs from the line-by-line fold (transcript-lines.ts hands its own functions). */
export type TranscriptLineFolds = LineFolds<TranscriptSummary, LineCounts>;

const theScanner = lazyLineScanner({ paths: PATHS, fastTypes: TYPES, heads: 'claude' });

/**
 * Folds the complete lines of `path` from `from` into `s` as `foldTranscriptFile` does without a sink or
 * messages; returns the offset reached, or undefined where WebAssembly is unavailable.
 */
export function foldTranscriptFileFast(path: string, from: number, s: TranscriptSummary, maxLineBytes: number, headBytes: number, counts: LineCounts, folds: TranscriptLineFolds): number | undefined {
  const sc = theScanner();
  if (!sc) return undefined;
  const visitor: ScanVisitor = {
    clean(type, line) {
      // A user record is read whole while the first prompt is unknown, or when its message may hold a link.
      if (type === USER && (s.firstPrompt === null || sc.asciiEscape() || sc.holds(MESSAGE, GITHUB))) return folds.line(s, line, counts);
      counts.linesParsed++;
      applyRecord(s, sc.record());
    },
    line: (bytes) => folds.line(s, bytes, counts),
    oversize: (head) => folds.oversize(s, head, counts),
  };
  const r = sc.readFile(path, from, maxLineBytes, headBytes, visitor);
  counts.linesIgnored += r.ignored;
  s.records += r.ignored; // a Claude Code record each, recognised by its head
  return r.offset;
}
