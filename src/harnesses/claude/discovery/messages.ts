/**
 * A Claude Code record as conversation messages (search and reading): the person's prompts (user),
 * Claude's text (assistant), each tool_use as its name with the paths or command it was given
 * (tool-call), tool results (tool-result), meta and generated prompts (system). Thinking blocks,
 * sidechain (subagent) records and Claude Code's own bookkeeping records give none.
 */
import { clipMessageText, type MessageRole, type TranscriptMessage } from '../../../core/transcript-message.ts';
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

/** The messages of one parsed record, in order; [] for records that hold none. */
export function conversationOf(raw: unknown): TranscriptMessage[] {
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
    else if (b.type === 'tool_result') push(out, 'tool-result', toolResultText(b) || '(no output)', at);
  }
  return out;
}
