/**
 * A Claude Code record as conversation messages (search and reading): the person's prompts (user),
 * Claude's text (assistant), each tool_use as its name with the paths or command it was given
 * (tool-call), tool results (tool-result), meta and generated prompts (system). Thinking blocks,
 * sidechain (subagent) records and Claude Code's own bookkeeping records give none.
 */
import { clipMessageText, MESSAGE_TEXT_MAX, type MessageRole, type TranscriptMessage } from '../../../core/transcript-message.ts';
import { ELIDED, ElidedText, parseJsonLine } from '../../../discovery/jsonl/index.ts';
import type { ElidedRanges } from '../../../discovery/jsonl/index.ts';
import { asIsoTime, asObject, asString } from './record-fields.ts';
import type { Json } from './record-fields.ts';

// Prompts Claude Code writes on the user's behalf (slash commands, `!cmd` shell input, hook output).
const GENERATED = /^<(?:command-|local-command-|bash-|system-reminder|user-prompt-submit-hook)/;
/** Tool arguments that name files, or what a shell ran. */
const PATH_KEYS = ['file_path', 'notebook_path', 'path', 'pattern', 'command', 'url'] as const;

/** How a record's strings are read: as they are, or with a skeleton's elided strings decoded (ElidedText). */
type TextOf = (x: unknown) => string | null;

function toolCallText(b: Json, text: TextOf): string {
  const input = asObject(b.input) ?? {};
  const args = PATH_KEYS.map((k) => text(input[k])).filter((v): v is string => v !== null && v.trim() !== '');
  return [text(b.name) ?? 'tool', ...args].join(' ');
}

function toolResultText(b: Json, text: TextOf): string {
  const c = b.content;
  if (typeof c === 'string') return text(c) ?? '';
  if (Array.isArray(c)) return c.map((p) => text(asObject(p)?.text) ?? '').filter((t) => t !== '').join('\n');
  return '';
}

function push(out: TranscriptMessage[], role: MessageRole, text: string, at: string | null): void {
  const t = clipMessageText(text);
  if (t !== '') out.push({ role, text: t, at });
}

export interface ConversationOptions {
  /**
   * Whether a tool result's text is wanted. Default: true. When false each tool result is still a
   * message (positions count it) but with empty text, so a caller never decodes a tool's output.
   */
  toolOutput?: boolean;
}

/**
 * The messages of one parsed record, in order; [] for records that hold none. `text` reads the strings
 * the messages are made of (default: as they are).
 */
export function conversationOf(raw: unknown, options: ConversationOptions = {}, text: TextOf = asString): TranscriptMessage[] {
  const toolOutput = options.toolOutput !== false;
  const r = asObject(raw);
  if (!r || r.isSidechain === true) return [];
  const at = asIsoTime(r.timestamp);
  if (r.type === 'system') {
    const c = text(r.content);
    return c ? [{ role: 'system', text: clipMessageText(c), at }] : [];
  }
  if (r.type !== 'user' && r.type !== 'assistant') return [];
  const message = asObject(r.message);
  if (!message) return [];
  const out: TranscriptMessage[] = [];
  const textRole = (t: string): MessageRole => (r.type === 'assistant' ? 'assistant' : r.isMeta === true || GENERATED.test(t.trim()) ? 'system' : 'user');
  const content = message.content;
  if (typeof content === 'string') {
    const t = text(content) ?? '';
    push(out, textRole(t), t, at);
    return out;
  }
  if (!Array.isArray(content)) return out;
  for (const block of content) {
    const b = asObject(block);
    if (!b) continue;
    if (b.type === 'text') {
      const t = text(b.text) ?? '';
      push(out, textRole(t), t, at);
    } else if (b.type === 'tool_use') push(out, 'tool-call', toolCallText(b, text), at);
    // Always one message, blank output included ('(no output)'), so the count never needs the text.
    else if (b.type === 'tool_result') out.push({ role: 'tool-result', text: toolOutput ? clipMessageText(toolResultText(b, text)) || '(no output)' : '', at });
  }
  return out;
}

/** Every elided string reads as ELIDED (+ its number), which starts with U+0000. */
const NUL = '\u0000';
const SENTINELS = new RegExp(`${ELIDED}\\d*`, 'g');
/**
 * Characters of an elided string decoded for a message: clipMessageText reads no further than
 * MESSAGE_TEXT_MAX + 1024 of them, and only a text longer than that is cut the same way as the whole.
 */
const DECODED_CHARS = MESSAGE_TEXT_MAX + 1025;

/**
 * A line's messages from the record the discovery fold read it as (`skeletal`: its skeleton, long strings
 * elided — jsonl/skeleton.ts; `ranges`: where they lie, when the skeleton numbered them), appended to
 * `out`, so search costs no second read nor parse of the file. The elided strings a message is made of
 * are decoded from their bytes alone, a long one only as far as its message keeps (ElidedText), never
 * the rest of the line (a tool's output is in it twice). The count never depends on what is decoded: a
 * tool result is one message whatever its text (conversationOf), and a text block's emptiness is
 * decided on its whole text whenever that text was elided. Without ranges, or when an elided string
 * does not decode, the line is parsed whole; a line whose skeleton parses but whose whole text does
 * not (an escape broken inside a long string) keeps the skeleton's messages, the elided parts left out.
 * A break past the part of a long string that is read goes unseen: that part is kept (reading pages
 * the same way, so the index and reading agree).
 */
export function pushLineMessages(out: TranscriptMessage[], record: unknown, line: Buffer, skeletal: boolean, options: ConversationOptions, ranges?: ElidedRanges): void {
  if (skeletal && ranges) {
    const elided = new ElidedText(line, ranges, DECODED_CHARS);
    const found = conversationOf(record, options, elided.text);
    if (!elided.failed) {
      for (const m of found) out.push(m);
      return;
    }
  }
  let found = conversationOf(record, options);
  if (skeletal && found.some((m) => m.text.includes(NUL))) {
    const whole = parseJsonLine(line, { linesParsed: 0, linesSkipped: 0 });
    found = whole === undefined ? found.map((m) => ({ ...m, text: m.text.replace(SENTINELS, '') })) : conversationOf(whole, options);
  }
  for (const m of found) out.push(m);
}
