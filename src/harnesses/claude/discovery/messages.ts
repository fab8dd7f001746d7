/**
 * A Claude Code record as conversation messages (search and reading): the person's prompts (user),
 * Claude's text (assistant), each tool_use as its name with the paths or command it was given
 * (tool-call), tool results (tool-result), meta and generated prompts (system). Thinking blocks,
 * sidechain (subagent) records and Claude Code's own bookkeeping records give none.
 */
import { clipMessageText, type MessageRole, type TranscriptMessage } from '../../../core/transcript-message.ts';
import { ELIDED, parseJsonLine } from '../../../discovery/jsonl/index.ts';
import { asIsoTime, asObject, asString } from './record-fields.ts';
import type { Json } from './record-fields.ts';

// Prompts Claude Code writes on the user's behalf (slash commands, `!cmd` shell input, hook output).
const GENERATED = /^<(?:command-|local-command-|bash-|system-reminder|user-prompt-submit-hook)/;
/** Tool arguments that name files, or what a shell ran. */
const PATH_KEYS = ['file_path', 'notebook_path', 'path', 'pattern', 'command', 'url'] as const;

function toolCallText(b: Json): string {
  const input = asObject(b.input) ?? {};
  const args = PATH_KEYS.map((k) => asString(input[k])).filter((v): v is string => v !== null && v.trim() !== '');
  return [asString(b.name) ?? 'tool', ...args].join(' ');
}

function toolResultText(b: Json): string {
  const c = b.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => asString(asObject(p)?.text) ?? '').filter((t) => t !== '').join('\n');
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

/** The messages of one parsed record, in order; [] for records that hold none. */
export function conversationOf(raw: unknown, options: ConversationOptions = {}): TranscriptMessage[] {
  const toolOutput = options.toolOutput !== false;
  const r = asObject(raw);
  if (!r || r.isSidechain === true) return [];
  const at = asIsoTime(r.timestamp);
  if (r.type === 'system') {
    const c = asString(r.content);
    return c ? [{ role: 'system', text: clipMessageText(c), at }] : [];
  }
  if (r.type !== 'user' && r.type !== 'assistant') return [];
  const message = asObject(r.message);
  if (!message) return [];
  const out: TranscriptMessage[] = [];
  const textRole = (t: string): MessageRole => (r.type === 'assistant' ? 'assistant' : r.isMeta === true || GENERATED.test(t.trim()) ? 'system' : 'user');
  const content = message.content;
  if (typeof content === 'string') {
    push(out, textRole(content), content, at);
    return out;
  }
  if (!Array.isArray(content)) return out;
  for (const block of content) {
    const b = asObject(block);
    if (!b) continue;
    if (b.type === 'text') {
      const t = asString(b.text) ?? '';
      push(out, textRole(t), t, at);
    } else if (b.type === 'tool_use') push(out, 'tool-call', toolCallText(b), at);
    // Always one message, blank output included ('(no output)'), so the count never needs the text.
    else if (b.type === 'tool_result') out.push({ role: 'tool-result', text: toolOutput ? clipMessageText(toolResultText(b)) || '(no output)' : '', at });
  }
  return out;
}

/** Every elided string reads as ELIDED, which starts with U+0000 (a NUL in real text only costs a whole parse). */
const NUL = '\u0000';

/**
 * A line's messages from the record the discovery fold read it as (`skeletal`: its skeleton, long strings
 * elided — jsonl/skeleton.ts), appended to `out`, so search costs no second read nor parse of the file.
 * They come from the skeleton unless one of them needs an elided string's text; only then is the line
 * parsed whole. The count never depends on what is decoded: a tool result is one message whatever its
 * text (conversationOf), and a text block's emptiness is decided on its whole text whenever that text
 * was elided. A line
 * whose skeleton parses but whose whole text does not (an escape broken inside a long string) keeps the
 * skeleton's messages, the elided parts left out.
 */
export function pushLineMessages(out: TranscriptMessage[], record: unknown, line: Buffer, skeletal: boolean, options: ConversationOptions): void {
  let found = conversationOf(record, options);
  if (skeletal && found.some((m) => m.text.includes(NUL))) {
    const whole = parseJsonLine(line, { linesParsed: 0, linesSkipped: 0 });
    found = whole === undefined ? found.map((m) => ({ ...m, text: m.text.split(ELIDED).join('') })) : conversationOf(whole, options);
  }
  for (const m of found) out.push(m);
}
