/**
 * A Codex rollout line as conversation messages (search and reading): the person's prompts and the
 * agent's replies from `item_completed` UserMessage / AgentMessage items (the small records; the full
 * `response_item` messages repeat them with instructions around), and each tool call from its
 * `response_item` (*_call) as its name with the command or the files it touches. Tool outputs are
 * skipped unparsed by the rollout filter, so they are neither searched nor shown.
 */
import { clipMessageText, type TranscriptMessage } from '../../../core/transcript-message.ts';

type Obj = Record<string, unknown>;
const obj = (x: unknown): Obj | null => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Obj) : null);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);

/** Argument keys that name what a tool ran or touched. */
const ARG_KEYS = ['cmd', 'command', 'path', 'file_path', 'workdir'] as const;
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;

function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content.map((c) => str(obj(c)?.text) ?? '').filter((t) => t !== '').join('\n');
}

function argText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(' ');
  return null;
}

function toolCallText(p: Obj): string {
  const ns = str(p.namespace);
  const name = str(p.name) ?? str(p.type) ?? 'tool';
  const parts = [ns ? `${ns}__${name}` : name];
  const raw = str(p.arguments);
  if (raw) {
    try {
      const args = obj(JSON.parse(raw));
      for (const k of ARG_KEYS) {
        const v = argText(args?.[k]);
        if (v) parts.push(v);
      }
    } catch {
      // Arguments that are not JSON name nothing we can tell apart.
    }
  }
  const input = str(p.input); // custom tools (apply_patch) take free text: keep the files it names
  if (input) for (const m of input.matchAll(PATCH_FILE)) parts.push((m[1] as string).trim());
  const action = obj(p.action); // local_shell_call
  const cmd = argText(action?.command);
  if (cmd) parts.push(cmd);
  return parts.join(' ');
}

/** The messages of one parsed rollout line; [] for lines that hold none. */
export function rolloutMessagesOf(record: unknown): TranscriptMessage[] {
  const r = obj(record);
  const p = obj(r?.payload);
  if (!r || !p) return [];
  const at = str(r.timestamp);
  if (r.type === 'event_msg' && p.type === 'item_completed') {
    const item = obj(p.item);
    const role = item?.type === 'UserMessage' ? 'user' : item?.type === 'AgentMessage' ? 'assistant' : null;
    if (!role) return [];
    const text = clipMessageText(contentText(item?.content));
    return text ? [{ role, text, at }] : [];
  }
  if (r.type === 'response_item' && /_call$/.test(str(p.type) ?? '')) return [{ role: 'tool-call', text: clipMessageText(toolCallText(p)), at }];
  return [];
}
