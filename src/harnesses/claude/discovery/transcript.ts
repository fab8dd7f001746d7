/**
 * The incremental summary of one Claude transcript (`projects/<slug>/<id>.jsonl`): records are fed
 * one at a time through `applyRecord`, and the summary is JSON-serialisable so the transcript index
 * can keep it between runs and only new bytes are ever parsed.
 */
import { asIsoTime, asObject, asString } from './record-fields.ts';
import type { Json } from './record-fields.ts';
import { humanPromptText, oneLine, prLinksInToolResults } from './transcript-text.ts';
import { applyCostState, countAssistantUsage, createUsageState } from './transcript-usage.ts';
import type { UsageState } from './transcript-usage.ts';
import { usageRecordOf } from './usage-records.ts';
import type { UsageSink } from './usage-records.ts';

/** Most PR links kept per session. */
const MAX_PR_LINKS = 20;

export interface TranscriptSummary {
  /** Bump when the shape changes: an index entry of another version is re-read from 0. */
  v: 4;
  /** Claude Code records seen (objects with a string `type`); a file with none is not a transcript. */
  records: number;
  sessionId: string | null;
  customTitle: string | null;
  agentName: string | null;
  aiTitle: string | null;
  firstPrompt: string | null;
  lastPrompt: string | null;
  cwd: string | null;
  gitBranch: string | null;
  /** Model of the latest assistant message. */
  model: string | null;
  usage: UsageState;
  prLinks: string[];
  /** ISO times: first and latest record, latest assistant message. */
  firstAt: string | null;
  lastAt: string | null;
  lastAssistantAt: string | null;
  /**
   * Key of the file's first API message (messageKey). A fork (`--resume … --fork-session`) starts
   * by copying its parent's history, so it shares its parent's first key: transcripts that share
   * one are the only ones compared message by message (forks.ts).
   */
  rootKey: string | null;
  /**
   * The session named by the latest copied record: Claude Code marks the messages a fork copies
   * with the `requestSessionId` of the session that made the request (its own are unmarked).
   */
  copiedFrom: string | null;
  /** API messages without a message id so far: their usage records are keyed by this ordinal. */
  unkeyed: number;
}

export const SUMMARY_VERSION = 4;

export function createTranscriptSummary(): TranscriptSummary {
  return {
    v: SUMMARY_VERSION,
    records: 0,
    unkeyed: 0,
    sessionId: null,
    customTitle: null,
    agentName: null,
    aiTitle: null,
    firstPrompt: null,
    lastPrompt: null,
    cwd: null,
    gitBranch: null,
    model: null,
    usage: createUsageState(),
    prLinks: [],
    firstAt: null,
    lastAt: null,
    lastAssistantAt: null,
    rootKey: null,
    copiedFrom: null,
  };
}

/**
 * What identifies one API message across transcripts: message id and request id, as ccusage
 * dedups (a request id alone repeats across the content blocks of one message). Null without a message id.
 */
export function messageKey(record: Json, message: Json): string | null {
  const id = asString(message.id);
  return id ? `${id}:${asString(record.requestId) ?? ''}` : null;
}

/** True when `x` is a summary this version wrote (index entries survive upgrades). */
export function isTranscriptSummary(x: unknown): x is TranscriptSummary {
  const o = asObject(x);
  return o !== null && o.v === SUMMARY_VERSION && asObject(o.usage) !== null && Array.isArray(o.prLinks);
}

// Records Muster never shows and that make up most of a transcript's bytes (request bodies,
// prompt snapshots, file backups, skill listings): recognised from the line's first bytes and
// never JSON.parsed. Conversation records start with parentUuid/isSidechain, metadata with type.
const IGNORED_TYPE = /^\{"type":"(?:api-request|file-history-|tools-used"|mode"|permission-mode"|atis-latch")/;
const ATTACHMENT = /^\{"parentUuid":(?:null|"[^"]*"),"isSidechain":(?:true|false),"attachment":/;

/** The reader's `ignore` predicate, given the first bytes of a line. */
export function ignoreTranscriptLine(head: string): boolean {
  return IGNORED_TYPE.test(head) || ATTACHMENT.test(head);
}

function addPrLinks(s: TranscriptSummary, links: string[]): void {
  for (const l of links) if (s.prLinks.length < MAX_PR_LINKS && !s.prLinks.includes(l)) s.prLinks.push(l);
}

function noteTime(s: TranscriptSummary, t: string | null): void {
  if (!t) return;
  if (!s.firstAt || t < s.firstAt) s.firstAt = t;
  if (!s.lastAt || t > s.lastAt) s.lastAt = t;
}

function noteConversation(s: TranscriptSummary, record: Json): void {
  s.sessionId ??= asString(record.sessionId);
  const cwd = asString(record.cwd);
  if (cwd) s.cwd = cwd;
  const branch = asString(record.gitBranch);
  if (branch) s.gitBranch = branch;
}

/** Folds one parsed record into the summary; each API message's usage also goes to `sink`. Unknown shapes are ignored. */
export function applyRecord(s: TranscriptSummary, raw: unknown, sink?: UsageSink): void {
  const record = asObject(raw);
  if (!record || typeof record.type !== 'string') return; // every line Claude Code writes has a type
  s.records++;
  const t = asIsoTime(record.timestamp); // once per record: each use below reads this
  noteTime(s, t);
  switch (record.type) {
    case 'user': {
      noteConversation(s, record);
      s.firstPrompt ??= humanPromptText(record);
      addPrLinks(s, prLinksInToolResults(record));
      break;
    }
    case 'assistant': {
      noteConversation(s, record);
      const message = asObject(record.message);
      if (!message) break;
      const model = asString(message.model);
      // `<synthetic>` marks messages Claude Code made up locally (errors, interruptions).
      if (model && model !== '<synthetic>') s.model = model;
      if (model !== '<synthetic>') {
        countAssistantUsage(s.usage, message);
        const key = messageKey(record, message);
        s.rootKey ??= key;
        // Counted with or without a sink: the summary is the same whoever reads (a read on from it numbers on).
        const unkeyed = key === null ? s.unkeyed++ : 0;
        if (sink) {
          const r = usageRecordOf(record, message, key ?? `${sink.sessionId}:unkeyed:${unkeyed}`, sink.sessionId, t);
          if (r) sink.emit(r);
        }
      }
      const from = asString(record.requestSessionId);
      if (from && from !== asString(record.sessionId)) s.copiedFrom = from;
      if (t && (!s.lastAssistantAt || t > s.lastAssistantAt)) s.lastAssistantAt = t;
      break;
    }
    case 'system':
      noteConversation(s, record);
      break;
    case 'custom-title':
      s.customTitle = titleOrNull(record.customTitle) ?? s.customTitle;
      break;
    case 'agent-name':
      s.agentName = titleOrNull(record.agentName) ?? s.agentName;
      break;
    case 'ai-title':
      s.aiTitle = titleOrNull(record.aiTitle) ?? s.aiTitle;
      break;
    case 'last-prompt':
      s.lastPrompt = titleOrNull(record.lastPrompt) ?? s.lastPrompt;
      break;
    case 'cost-state':
      applyCostState(s.usage, record);
      break;
    case 'pr-link': {
      const url = asString(record.prUrl);
      if (url && /^https:\/\//.test(url)) addPrLinks(s, [url]);
      break;
    }
  }
}

function titleOrNull(x: unknown): string | null {
  const t = asString(x);
  return t && t.trim() ? oneLine(t) : null;
}

/** Title precedence: custom title, agent name, AI title, first prompt (then the last prompt). */
export function titleOf(s: TranscriptSummary): string | null {
  return s.customTitle ?? s.agentName ?? s.aiTitle ?? s.firstPrompt ?? s.lastPrompt;
}
