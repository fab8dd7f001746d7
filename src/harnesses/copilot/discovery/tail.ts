/**
 * The last messages of a Copilot session for the board's panel (and a goal's final report): only the
 * end of events.jsonl is read, widening the window until enough messages are found. Text only.
 */
import fs from 'node:fs';
import type { TailMessage } from '../../../discovery/contract.ts';
import { readJsonlTail } from '../../../discovery/jsonl/index.ts';
import { ignoredLine } from './events.ts';

/** Longest text kept per message, in characters. */
export const TAIL_TEXT_MAX = 2000;
const FIRST_WINDOW = 256 * 1024;
const LAST_WINDOW = 8 * 1024 * 1024;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function clip(text: string): string {
  const t = text.trim();
  return t.length > TAIL_TEXT_MAX ? `${t.slice(0, TAIL_TEXT_MAX - 1)}…` : t;
}

function toolCallText(call: unknown): string {
  const c = obj(call) ?? {};
  const args = obj(c.arguments) ?? {};
  const arg = str(args.command) ?? str(args.path) ?? str(args.pattern) ?? str(c.intentionSummary) ?? '';
  return `→ ${str(c.name) ?? 'tool'}${arg ? `: ${arg}` : ''}`;
}

/** The messages one event carries (a model reply can hold text and tool calls). */
export function messagesOf(record: unknown): TailMessage[] {
  const r = obj(record);
  const data = obj(r?.data);
  if (!r || !data) return [];
  const at = str(r.timestamp);
  switch (r.type) {
    case 'user.message': {
      const text = str(data.content)?.trim();
      return text ? [{ role: 'user', text: clip(text), at }] : [];
    }
    case 'assistant.message': {
      const out: TailMessage[] = [];
      const text = str(data.content)?.trim();
      if (text) out.push({ role: 'assistant', text: clip(text), at });
      if (Array.isArray(data.toolRequests)) for (const call of data.toolRequests) out.push({ role: 'tool', text: clip(toolCallText(call)), at });
      return out;
    }
    case 'tool.execution_complete': {
      const result = obj(data.result);
      return [{ role: 'tool', text: clip(str(result?.content) || (data.success === false ? '(failed)' : '(no output)')), at }];
    }
    default:
      return [];
  }
}

/** The last `limit` messages of `file`, oldest first; [] when the file does not exist. */
export function readCopilotTail(file: string, limit: number): TailMessage[] {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return [];
  }
  for (let window = FIRST_WINDOW; ; window *= 4) {
    const messages = readJsonlTail(file, window, { ignore: ignoredLine }).flatMap(messagesOf);
    if (messages.length >= limit || window >= size || window >= LAST_WINDOW) return messages.slice(-limit);
  }
}
