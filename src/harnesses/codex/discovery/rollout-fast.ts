/**
 * The cold index's first pass over a Codex rollout (a summary, no usage records, no messages) with its
 * line loop in WebAssembly (discovery/json-scan), as transcript-fast.ts does for Claude. The module reads
 * each line's head as rollout-lines.ts does: the records Muster never shows are passed over there (their
 * times kept as the latest), a tool output comes back with the id of the call it closes, and a token line
 * with its running total's object and its time. The rest is validated as JSON, and a clean tool call,
 * turn context or event comes back with the fields `applyRolloutRecord` reads, applied as its parse would
 * be; every other line is folded by `foldRolloutLine`, as before. While no call is pending, the module
 * pairs tool calls with the outputs that close them (assembly/codex-calls.ts) and hands back only their
 * count. So the summary and the counts are exactly the JavaScript fold's.
 */
import { KIND, lazyLineScanner } from '../../../discovery/json-scan/index.ts';
import type { LineFolds, ScanVisitor } from '../../../discovery/json-scan/index.ts';
import { latin1Text, utf8Text } from '../../../discovery/jsonl/index.ts';
import { applyRolloutRecord, applyTokenLine, applyTokenTotal } from './rollout.ts';
import type { RolloutSummary } from './rollout.ts';
import type { LineCounts } from './rollout-lines.ts';

/** The keys `applyRolloutRecord` reads from tool calls, turn contexts and events (path i is node i + 1). */
const PATHS = [
  ['type'], ['timestamp'],
  ['payload'], ['payload', 'type'], ['payload', 'call_id'], ['payload', 'name'], ['payload', 'namespace'], ['payload', 'turn_id'],
  ['payload', 'turn_attribution'], ['payload', 'turn_attribution', 'turn_trigger'], ['payload', 'last_agent_message'],
  ['payload', 'model'], ['payload', 'cwd'], ['payload', 'thread_settings'], ['payload', 'thread_settings', 'model'], ['payload', 'thread_settings', 'cwd'],
] as const;
const PAYLOAD_TYPE = 4;
const TYPES = ['response_item', 'turn_context', 'event_msg'] as const;
const EVENT = 2;
/** Events whose fields are not all tracked: a prompt's text, a token count in another layout. */
const READ_WHOLE = new Set(['item_completed', 'token_count']);
/** The module's flags: the first prompt is read (an item_completed UserMessage is then passed over); no call is pending (the module may pair calls with their outputs). */
const PROMPT_KNOWN = 1;
const PENDING_EMPTY = 2;

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/** What the fast fold needs from the line-by-line fold (rollout-lines.ts hands its own functions). */
export type RolloutLineFolds = LineFolds<RolloutSummary, LineCounts>;

const theScanner = lazyLineScanner({ paths: PATHS, fastTypes: TYPES, heads: 'codex' });

/** A token line's running total (token-lines.ts reads it so: the object's latin1 text), or undefined when it is not JSON. */
function parseTotal(line: Buffer, from: number, to: number): unknown {
  try {
    return JSON.parse(latin1Text(line, from, to)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Folds the complete lines of `path` from `from` into `s` as `foldRolloutFile` does without a sink or
 * messages; returns the offset reached, or undefined where WebAssembly is unavailable.
 */
export function foldRolloutFileFast(path: string, from: number, s: RolloutSummary, maxLineBytes: number, headBytes: number, counts: LineCounts, folds: RolloutLineFolds): number | undefined {
  const sc = theScanner();
  if (!sc) return undefined;
  let flags = -1;
  /** After each line the host folds: what the module must know of the summary. */
  const syncFlags = (): void => {
    const now = (s.firstPrompt === null ? 0 : PROMPT_KNOWN) | (isEmpty(s.pending) ? PENDING_EMPTY : 0);
    if (now !== flags) sc.setFlags((flags = now));
  };
  const readLine = (line: Buffer): void => {
    folds.line(s, line, counts);
    syncFlags();
  };
  const visitor: ScanVisitor = {
    clean(type, line) {
      if (type === EVENT && sc.kind(PAYLOAD_TYPE) === KIND.string && READ_WHOLE.has(sc.value(PAYLOAD_TYPE) as string)) return readLine(line);
      counts.linesParsed++;
      applyRolloutRecord(s, sc.record());
      syncFlags();
    },
    line: readLine,
    oversize(head) {
      folds.oversize(s, head, counts);
      syncFlags();
    },
    token(line, totalFrom, totalTo, tsFrom, tsTo) {
      // As foldTokenLine: a time that is missing or holds an escape, or a total that is not JSON, and the line is read whole.
      const ts = tsFrom < 0 ? undefined : utf8Text(line, tsFrom, tsTo);
      if (ts === undefined || ts.includes('\\')) return readLine(line);
      const read = sc.tokenTotal(); // the module read the total as its parse would be read
      if (read !== null) {
        counts.linesParsed++;
        return applyTokenTotal(s, ts, read);
      }
      const total = parseTotal(line, totalFrom, totalTo);
      if (total === undefined) return readLine(line);
      counts.linesParsed++;
      applyTokenLine(s, ts, total, undefined);
    },
    closed(line, idFrom, idTo) {
      counts.linesIgnored++;
      s.records++; // only a Codex record's head is taken
      delete s.pending[utf8Text(line, idFrom, idTo)];
      syncFlags();
    },
  };
  syncFlags();
  const r = sc.readFile(path, from, maxLineBytes, headBytes, visitor);
  counts.linesIgnored += r.ignored;
  s.records += r.ignored + r.paired;
  counts.linesParsed += r.paired;
  if (r.latest !== null && (s.lastActivityAt === null || r.latest > s.lastActivityAt)) s.lastActivityAt = r.latest;
  return r.offset;
}
