/**
 * The last messages of a Claude transcript for the board's session panel: only the end of the file
 * is read (readJsonlTail), widening the window until enough messages are found or the file is
 * exhausted, so a 100 MB transcript costs a few hundred KiB. Text only; the board never renders it
 * as HTML.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TailMessage } from '../../../discovery/contract.ts';
import { readJsonlTail } from '../../../discovery/jsonl/index.ts';
import { asIsoTime, asObject, asString } from './record-fields.ts';
import { transcriptFilesOf } from './transcript-files.ts';
import type { Json } from './record-fields.ts';

/** Longest text kept per message, in characters (the panel shows a tail, not a transcript). */
export const TAIL_TEXT_MAX = 2000;
const FIRST_WINDOW = 256 * 1024;
const LAST_WINDOW = 8 * 1024 * 1024;

function clip(text: string): string {
  const t = text.trim();
  return t.length > TAIL_TEXT_MAX ? `${t.slice(0, TAIL_TEXT_MAX - 1)}…` : t;
}

function toolUseText(b: Json): string {
  const input = asObject(b.input) ?? {};
  const arg = asString(input.command) ?? asString(input.file_path) ?? asString(input.pattern) ?? asString(input.description) ?? '';
  return `${asString(b.name) ?? 'tool'}${arg ? `: ${arg}` : ''}`;
}

function toolResultText(b: Json): string {
  const c = b.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => asString(asObject(p)?.text) ?? '').join('\n');
  return '';
}

/** Messages of one transcript record (a record can hold text and tool calls). */
export function messagesOf(record: unknown): TailMessage[] {
  const r = asObject(record);
  if (!r || r.isSidechain === true || r.isMeta === true || (r.type !== 'user' && r.type !== 'assistant')) return [];
  const message = asObject(r.message);
  if (!message) return [];
  const at = asIsoTime(r.timestamp);
  const role = r.type === 'assistant' ? 'assistant' : 'user';
  const content = message.content;
  if (typeof content === 'string') return content.trim() ? [{ role, text: clip(content), at }] : [];
  if (!Array.isArray(content)) return [];
  const out: TailMessage[] = [];
  for (const block of content) {
    const b = asObject(block);
    if (!b) continue;
    if (b.type === 'text' && asString(b.text)?.trim() && !asString(b.text)?.startsWith('<system-reminder>')) out.push({ role, text: clip(asString(b.text) ?? ''), at });
    else if (b.type === 'tool_use') out.push({ role: 'tool', text: clip(`→ ${toolUseText(b)}`), at });
    else if (b.type === 'tool_result') out.push({ role: 'tool', text: clip(toolResultText(b) || '(no output)'), at });
  }
  return out;
}

/**
 * The newest transcript file of session `id` under `projectsDir`, or null. Links are followed only
 * inside `home` (default: projectsDir's parent, the Claude home).
 */
export function findTranscriptFile(projectsDir: string, id: string, home = path.dirname(projectsDir)): string | null {
  let best: { file: string; mtimeMs: number } | null = null;
  for (const file of transcriptFilesOf(projectsDir, home, id, { filesSkipped: 0, errors: [] })) {
    try {
      const st = fs.statSync(file);
      if (st.isFile() && (!best || st.mtimeMs > best.mtimeMs)) best = { file, mtimeMs: st.mtimeMs };
    } catch {}
  }
  return best?.file ?? null;
}

export function readClaudeTail(projectsDir: string, id: string, limit: number, home?: string): TailMessage[] {
  const file = findTranscriptFile(projectsDir, id, home);
  if (!file) return [];
  const size = fs.statSync(file).size;
  for (let window = FIRST_WINDOW; ; window *= 4) {
    const messages = readJsonlTail(file, window).flatMap(messagesOf);
    if (messages.length >= limit || window >= size || window >= LAST_WINDOW) return messages.slice(-limit);
  }
}
