/**
 * A Copilot CLI event as conversation messages (search and reading): `user.message` (user),
 * `assistant.message` text (assistant) and its tool requests as name with command or path
 * (tool-call), `tool.execution_complete` output (tool-result). The system prompt is skipped unparsed.
 */
import { clipMessageText, type TranscriptMessage } from '../../../core/transcript-message.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const ARG_KEYS = ['command', 'path', 'file_path', 'pattern', 'url'] as const;

function toolCallText(call: unknown): string {
  const c = obj(call) ?? {};
  const args = obj(c.arguments) ?? {};
  return [str(c.name) ?? 'tool', ...ARG_KEYS.map((k) => str(args[k])).filter((v): v is string => v !== null && v.trim() !== '')].join(' ');
}

function one(role: TranscriptMessage['role'], text: string | null | undefined, at: string | null): TranscriptMessage[] {
  const t = clipMessageText(text ?? '');
  return t ? [{ role, text: t, at }] : [];
}

export function copilotMessagesOf(record: unknown): TranscriptMessage[] {
  const r = obj(record);
  const data = obj(r?.data);
  if (!r || !data) return [];
  const at = str(r.timestamp);
  switch (r.type) {
    case 'user.message':
      return one('user', str(data.content), at);
    case 'assistant.message': {
      const out = one('assistant', str(data.content), at);
      if (Array.isArray(data.toolRequests)) for (const call of data.toolRequests) out.push(...one('tool-call', toolCallText(call), at));
      return out;
    }
    case 'tool.execution_complete':
      return one('tool-result', str(obj(data.result)?.content) || (data.success === false ? '(failed)' : '(no output)'), at);
    default:
      return [];
  }
}
