/**
 * A Gemini CLI session's conversation (search and reading). A chat file is a log of edits to one
 * conversation, not a list of messages, so it is replayed the way Gemini CLI 0.61.0 loads it:
 * - a message record `{ id, type, … }` is set under its id: a reply written again (once more with its
 *   tool calls, or its tokens) replaces the first copy in place, keeping its place;
 * - `{ $set: { messages } }` replaces the whole list (a resume writes the session context and every
 *   earlier message again);
 * - `{ $rewindTo: id }` drops that message and every later one (all of them when the id is unknown).
 * A session's files (a resume starts a second one) are replayed oldest first (header `startTime`, then
 * path) into one list, deduplicated by id the same way. Positions are ordinals in that list, so the
 * index (which re-reads a session whenever its files change) and the paged reader agree.
 *
 * Roles: the person's prompts (user), Gemini's text without its thoughts (assistant), each tool call as
 * its name with the paths or command it was given (tool-call), function responses (tool-result), and
 * `info`/`warning`/`error` records (system). The session context Gemini writes before the first prompt
 * (and hook context) is not a message.
 */
import { readJsonlFrom } from '../../../discovery/jsonl/index.ts';
import { clipMessageText, type MessagePage, type MessageRole, type TranscriptMessage } from '../../../core/transcript-message.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const iso = (v: unknown): string | null => (typeof v === 'string' && Number.isFinite(Date.parse(v)) ? new Date(v).toISOString() : null);

/** Lines longer than this are never parsed (the same bound as the discovery fold). */
export const CHAT_MAX_LINE = 8 * 1024 * 1024;

/** Tool arguments that name files, or what a shell ran (Gemini's built-in tools). */
const ARG_KEYS = ['command', 'file_path', 'absolute_path', 'dir_path', 'path', 'pattern', 'url'] as const;
/** Blocks Gemini writes as user content that the person did not type. */
const GENERATED = /^<(?:session_context|hook_context)>/;

/** True for a record that edits the conversation (a message, a list replaced, a rewind): the index then re-reads. */
export function editsConversation(record: unknown): boolean {
  const r = obj(record);
  if (!r) return false;
  return typeof r.id === 'string' || typeof r.$rewindTo === 'string' || Array.isArray(obj(r.$set)?.messages);
}

/** One chat file replayed: its messages by id, in conversation order, and when it was started. */
export interface ReplayedChat {
  startTime: string | null;
  messages: Map<string, Json>;
}

/** Applies one record of a chat file to `chat` (mutates it). Records of unknown shape are ignored. */
export function replayRecord(chat: ReplayedChat, record: unknown): void {
  const r = obj(record);
  if (!r) return;
  if (typeof r.$rewindTo === 'string') {
    const ids = [...chat.messages.keys()];
    const at = ids.indexOf(r.$rewindTo);
    if (at < 0) chat.messages.clear();
    else for (const id of ids.slice(at)) chat.messages.delete(id);
    return;
  }
  if (typeof r.id === 'string') {
    chat.messages.set(r.id, r); // an id already there keeps its place (a Map's order is first insertion)
    return;
  }
  const set = obj(r.$set);
  const list = Array.isArray(set?.messages) ? set.messages : typeof r.sessionId === 'string' && Array.isArray(r.messages) ? r.messages : null;
  if (typeof r.sessionId === 'string' && set === null) chat.startTime ??= iso(r.startTime);
  if (list === null) return;
  if (set) chat.messages.clear();
  for (const m of list) {
    const msg = obj(m);
    if (msg && typeof msg.id === 'string') chat.messages.set(msg.id, msg);
  }
}

function toolCallText(call: Json): string {
  const args = obj(call.args) ?? {};
  const named = ARG_KEYS.map((k) => str(args[k])).filter((v): v is string => v !== null && v.trim() !== '');
  return [str(call.name) ?? 'tool', ...named].join(' ');
}

/** Text parts of a content, without thoughts (a synthetic reply keeps its thought as a part). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => {
    const part = obj(p);
    return part && part.thought !== true ? (str(part.text) ?? '') : '';
  }).join('');
}

function push(out: TranscriptMessage[], role: MessageRole, text: string, at: string | null): void {
  const t = clipMessageText(text);
  if (t !== '') out.push({ role, text: t, at });
}

/** The messages of one message record, in order; [] for records that hold none. */
export function geminiMessagesOf(record: Json): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  const at = iso(record.timestamp);
  switch (record.type) {
    case 'user': {
      const text = textOf(record.content);
      if (!GENERATED.test(text.trimStart())) push(out, 'user', text, at);
      for (const p of Array.isArray(record.content) ? record.content : []) {
        const fr = obj(obj(p)?.functionResponse);
        if (!fr) continue;
        const output = obj(fr.response)?.output ?? obj(fr.response)?.error;
        push(out, 'tool-result', typeof output === 'string' ? output.replace(/<\/?untrusted_context>/g, '') : '(no output)', at);
      }
      return out;
    }
    case 'gemini':
      push(out, 'assistant', textOf(record.content), at);
      // The calls' `result` repeats the function responses the next user record carries: read there.
      for (const c of Array.isArray(record.toolCalls) ? record.toolCalls : []) {
        const call = obj(c);
        if (call) push(out, 'tool-call', toolCallText(call), at);
      }
      return out;
    case 'info':
    case 'warning':
    case 'error':
      push(out, 'system', textOf(record.content), at);
      return out;
    default:
      return out;
  }
}

/** Replays one chat file from its start; throws when it cannot be read (the caller counts it). */
export function replayChatFile(file: string): ReplayedChat {
  const chat: ReplayedChat = { startTime: null, messages: new Map() };
  readJsonlFrom(file, 0, (rec) => replayRecord(chat, rec), { maxLineBytes: CHAT_MAX_LINE });
  return chat;
}

/** The session's conversation over its files (oldest file first, messages deduplicated by id). */
export function mergeChats(chats: readonly { path: string; chat: ReplayedChat }[]): TranscriptMessage[] {
  const ordered = [...chats].sort((a, b) => (a.chat.startTime ?? '').localeCompare(b.chat.startTime ?? '') || a.path.localeCompare(b.path));
  const byId = new Map<string, Json>();
  for (const { chat } of ordered) for (const [id, m] of chat.messages) byId.set(id, m);
  const out: TranscriptMessage[] = [];
  for (const m of byId.values()) for (const msg of geminiMessagesOf(m)) out.push(msg);
  return out;
}

/** Reads a session's files whole into its conversation; a file that cannot be read is left out. */
export function readGeminiConversation(files: readonly string[]): TranscriptMessage[] {
  const chats: { path: string; chat: ReplayedChat }[] = [];
  for (const path of files) {
    try {
      chats.push({ path, chat: replayChatFile(path) });
    } catch {
      // Gone or replaced by a non-file since it was listed: the next scan forgets it.
    }
  }
  return mergeChats(chats);
}

/** A page of a session's conversation, positions as the index gave them. */
export function pageGeminiConversation(files: readonly string[], from: number, limit: number): MessagePage {
  const all = readGeminiConversation(files);
  const messages = all.slice(from, from + limit).map((m, i) => ({ ...m, position: from + i }));
  const end = from + messages.length;
  return { messages, total: all.length, next: end < all.length ? end : null };
}
