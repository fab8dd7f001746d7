/**
 * The cold index's first pass over a Claude transcript (a summary, no usage records, no messages) with
 * its line loop in WebAssembly (discovery/json-scan). The records that make up most lines — assistant
 * messages, system records and, once the first prompt is known, user records whose message cannot hold
 * a PR link — and prompt and cost records are folded in the module itself (assembly/claude-summary.ts,
 * as applyRecord folds them) when their fields are plain; the summary takes what it folded before each
 * line the host reads and at the end, so every record is applied in its order. Such a record whose fields
 * are not plain comes back clean with the fields `applyRecord` reads, put in a small record and applied
 * as a parsed line would be; every other line is folded by `foldTranscriptLine`, as before. So the
 * summary and the counts are exactly a JavaScript fold's, with no JSON.parse and no JavaScript at all for
 * most lines.
 */
import { lazyLineScanner, putRecent, takeFolded, takeRecent } from '../../../discovery/json-scan/index.ts';
import type { FoldedSummary, LineFolds, RecentMessage, ScanVisitor } from '../../../discovery/json-scan/index.ts';
import type { TokenCounts } from '../../../core/session.ts';
import { addTokens } from '../../../core/session.ts';
import { applyRecord } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import { addInto, applyCostState } from './transcript-usage.ts';
import { oneLine } from './transcript-text.ts';
import type { LineCounts } from './transcript-lines.ts';

/** The keys `applyRecord` reads from assistant, system and user records (path i is node i + 1). */
const PATHS = [
  ['type'], ['timestamp'], ['sessionId'], ['cwd'], ['gitBranch'], ['requestId'], ['requestSessionId'],
  ['message'], ['message', 'model'], ['message', 'id'],
  ['message', 'usage'], ['message', 'usage', 'input_tokens'], ['message', 'usage', 'output_tokens'],
  ['message', 'usage', 'cache_read_input_tokens'], ['message', 'usage', 'cache_creation_input_tokens'],
  ['lastPrompt'], ['totalCostUSD'], ['startTime'],
] as const;
const MESSAGE = 8;
const TYPES = ['assistant', 'system', 'user', 'last-prompt', 'cost-state'] as const;
const ASSISTANT = 0;
const USER = 2;
/** The module's summary flags: fold; the first prompt is known. */
const FOLD = 1;
const PROMPT_KNOWN = 2;
/** What an assistant record's bytes hold: its type, or a \u escape that may spell it. */
const ASSISTANT_BYTES = Buffer.from('assistant');
const UNICODE_ESCAPE = Buffer.from('\\u');
/** What every github.com link's bytes hold (transcript-lines.ts: PR links are looked for in user records). */
const GITHUB = Buffer.from('hub.com');

/** What the fast fold needs from the line-by-line fold (transcript-lines.ts hands its own functions). */
export type TranscriptLineFolds = LineFolds<TranscriptSummary, LineCounts>;

const theScanner = lazyLineScanner({ paths: PATHS, fastTypes: TYPES, heads: 'claude' });

/** Adds what the module folded since the last take to `s`, as applyRecord would have, record by record. */
function takeInto(sum: FoldedSummary, s: TranscriptSummary, counts: LineCounts): void {
  const f = takeFolded(sum);
  if (f === null) return;
  s.records += f.records;
  counts.linesParsed += f.records;
  s.unkeyed += f.unkeyed;
  if (f.firstAt !== null && (!s.firstAt || f.firstAt < s.firstAt)) s.firstAt = f.firstAt;
  if (f.lastAt !== null && (!s.lastAt || f.lastAt > s.lastAt)) s.lastAt = f.lastAt;
  if (f.lastAssistantAt !== null && (!s.lastAssistantAt || f.lastAssistantAt > s.lastAssistantAt)) s.lastAssistantAt = f.lastAssistantAt;
  s.sessionId ??= f.sessionId;
  s.rootKey ??= f.rootKey;
  if (f.cwd !== null) s.cwd = f.cwd;
  if (f.gitBranch !== null) s.gitBranch = f.gitBranch;
  if (f.model !== null) s.model = f.model;
  if (f.copiedFrom !== null) s.copiedFrom = f.copiedFrom;
  if (f.lastPrompt !== null) s.lastPrompt = oneLine(f.lastPrompt);
  // Cost records before the tokens since the last of them (a cost record starts the uncosted tokens again).
  // (Indexed loops: for…of with destructuring compiles to the iterator protocol, costly for V8 to optimise.)
  for (let i = 0; i < f.costs.length; i++) {
    const c = f.costs[i] as [string, string | null];
    applyCostState(s.usage, { totalCostUSD: Number(c[0]), startTime: c[1] === null ? undefined : Number(c[1]) });
  }
  addTokens(s.usage.tokens, f.tokens);
  for (let i = 0; i < f.byModel.length; i++) {
    const m = f.byModel[i] as [string, TokenCounts, TokenCounts | null];
    addInto(s.usage.byModel, m[0], m[1]);
    if (m[2]) addInto(s.usage.uncosted, m[0], m[2]);
  }
}

/** The module's recent messages into the summary, when it changed them. */
function takeRecentInto(sum: FoldedSummary, s: TranscriptSummary): void {
  const recent = takeRecent(sum);
  if (recent === null) return;
  s.usage.recent.length = 0;
  for (let i = 0; i < recent.length; i++) s.usage.recent.push(recent[i] as RecentMessage);
}

/**
 * Folds the complete lines of `path` from `from` into `s` as `foldTranscriptFile` does without a sink or
 * messages; returns the offset reached, or undefined where WebAssembly is unavailable.
 */
export function foldTranscriptFileFast(path: string, from: number, s: TranscriptSummary, maxLineBytes: number, headBytes: number, counts: LineCounts, folds: TranscriptLineFolds): number | undefined {
  const sc = theScanner();
  if (!sc) return undefined;
  const sum = sc.summary;
  let known = s.firstPrompt !== null;
  /** The host folds a line: what the module folded before it goes first; its recent messages too when the line may count usage. */
  const before = (mayCount: boolean): void => {
    takeInto(sum, s, counts);
    if (mayCount) takeRecentInto(sum, s);
  };
  /** After the host folded a line: the recent messages back into the module when it may have changed them, and the first prompt. */
  const after = (mayCount: boolean): void => {
    if (mayCount) putRecent(sum, s.usage.recent);
    if (!known && s.firstPrompt !== null) {
      known = true;
      sum.set(FOLD | PROMPT_KNOWN);
    }
  };
  const lineBack = (line: Buffer): void => {
    const mayCount = line.indexOf(ASSISTANT_BYTES) !== -1 || line.indexOf(UNICODE_ESCAPE) !== -1;
    before(mayCount);
    folds.line(s, line, counts);
    after(mayCount);
  };
  const visitor: ScanVisitor = {
    clean(type, line) {
      // A user record is read whole while the first prompt is unknown, or when its message may hold a link.
      if (type === USER && (s.firstPrompt === null || sc.asciiEscape() || sc.holds(MESSAGE, GITHUB))) return lineBack(line);
      // A record the module would not fold (a field it does not hold as it is): applied from its fields.
      const mayCount = type === ASSISTANT;
      before(mayCount);
      counts.linesParsed++;
      applyRecord(s, sc.record());
      after(mayCount);
    },
    line: lineBack,
    oversize(head) {
      takeInto(sum, s, counts);
      folds.oversize(s, head, counts);
    },
  };
  sum.take();
  putRecent(sum, s.usage.recent);
  sum.set(FOLD | (known ? PROMPT_KNOWN : 0));
  try {
    const r = sc.readFile(path, from, maxLineBytes, headBytes, visitor);
    takeInto(sum, s, counts);
    takeRecentInto(sum, s);
    counts.linesIgnored += r.ignored;
    s.records += r.ignored; // a Claude Code record each, recognised by its head
    return r.offset;
  } finally {
    sum.set(0);
  }
}
