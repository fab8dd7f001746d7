/**
 * The last messages of a Gemini chat for the board's session panel: only the end of the file is read
 * (readJsonlTail), widening the window until enough messages are found or the file is exhausted. A
 * reply written twice under one id (once more with its tool calls) is shown once, as last written.
 * Text only; the board never renders it as HTML.
 */
import fs from 'node:fs';
import type { TailMessage } from '../../../discovery/contract.ts';
import { readJsonlTail } from '../../../discovery/jsonl/index.ts';
import { contentText, isSessionContext } from './chat-record.ts';

const TEXT_MAX = 2000;
const FIRST_WINDOW = 256 * 1024;
const LAST_WINDOW = 8 * 1024 * 1024;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

function clip(text: string): string {
  const t = text.trim();
  return t.length > TEXT_MAX ? `${t.slice(0, TEXT_MAX - 1)}…` : t;
}

function toolCallText(c: Json): string {
  const args = obj(c.args) ?? {};
  const arg = [args.command, args.file_path, args.absolute_path, args.pattern, args.question].find((v) => typeof v === 'string');
  return `→ ${typeof c.name === 'string' ? c.name : 'tool'}${typeof arg === 'string' ? `: ${arg}` : ''}`;
}

/** Messages of one chat record, with the record's id (replies repeat under theirs). */
export function messagesOf(record: unknown): { id: string; messages: TailMessage[] } | null {
  const r = obj(record);
  if (!r || typeof r.id !== 'string' || (r.type !== 'user' && r.type !== 'gemini')) return null;
  const at = typeof r.timestamp === 'string' ? r.timestamp : null;
  const out: TailMessage[] = [];
  if (r.type === 'user') {
    const text = contentText(r.content);
    if (text.trim() && !isSessionContext(text)) out.push({ role: 'user', text: clip(text), at });
    for (const p of Array.isArray(r.content) ? r.content : []) {
      const fr = obj(obj(p)?.functionResponse);
      const output = obj(fr?.response)?.output;
      if (fr) out.push({ role: 'tool', text: clip(typeof output === 'string' ? output.replace(/<\/?untrusted_context>/g, '') : '(no output)'), at });
    }
  } else {
    const text = contentText(r.content);
    if (text.trim()) out.push({ role: 'assistant', text: clip(text), at });
    for (const c of Array.isArray(r.toolCalls) ? r.toolCalls : []) if (obj(c)) out.push({ role: 'tool', text: clip(toolCallText(c as Json)), at });
  }
  return { id: r.id, messages: out };
}

/** The last `limit` messages of `file`, oldest first. */
export function readGeminiTail(file: string, limit: number): TailMessage[] {
  const size = fs.statSync(file).size;
  for (let window = FIRST_WINDOW; ; window *= 4) {
    const byId = new Map<string, TailMessage[]>();
    for (const rec of readJsonlTail(file, window)) {
      const m = messagesOf(rec);
      if (!m) continue;
      byId.delete(m.id); // a reply written again moves to where it was last written
      byId.set(m.id, m.messages);
    }
    const messages = [...byId.values()].flat();
    if (messages.length >= limit || window >= size || window >= LAST_WINDOW) return messages.slice(-limit);
  }
}
