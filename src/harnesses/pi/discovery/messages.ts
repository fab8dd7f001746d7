/**
 * A pi/omp session record as conversation messages (search and reading): the person's prompts (user),
 * the agent's text (assistant), each toolCall part as its name with the paths or command it was given
 * (tool-call). Thinking parts give none; tool results are skipped unparsed by the scan's line filter
 * (their output can be huge), so they are neither searched nor shown.
 */
import { clipMessageText, type TranscriptMessage } from '../../../core/transcript-message.ts';
import { asObj } from './records.ts';

const ARG_KEYS = ['path', 'file_path', 'filePath', 'command', 'pattern', 'url'] as const;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function toolCallText(p: Record<string, unknown>): string {
  const args = asObj(p['arguments']);
  const parts = [str(p['name']) ?? 'tool'];
  for (const k of ARG_KEYS) {
    const v = str(args?.[k]);
    if (v && v.trim() !== '') parts.push(v);
  }
  return parts.join(' ');
}

/** The messages of one parsed record, in order; [] for records that hold none. */
export function piMessagesOf(record: unknown): TranscriptMessage[] {
  const r = asObj(record);
  if (!r || r['type'] !== 'message') return [];
  const m = asObj(r['message']);
  const role = m?.['role'];
  if (role !== 'user' && role !== 'assistant') return [];
  const at = str(r['timestamp']);
  const content = m?.['content'];
  if (typeof content === 'string') {
    const t = clipMessageText(content);
    return t ? [{ role, text: t, at }] : [];
  }
  if (!Array.isArray(content)) return [];
  const out: TranscriptMessage[] = [];
  for (const part of content) {
    const p = asObj(part);
    if (!p) continue;
    if (p['type'] === 'text') {
      const t = clipMessageText(str(p['text']) ?? '');
      if (t) out.push({ role, text: t, at });
    } else if (p['type'] === 'toolCall') out.push({ role: 'tool-call', text: clipMessageText(toolCallText(p)), at });
  }
  return out;
}
