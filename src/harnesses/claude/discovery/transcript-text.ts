/**
 * Text pulled out of transcript records: the first human prompt (a title fallback) and PR links.
 */
import { asObject, asString } from './record-fields.ts';
import type { Json } from './record-fields.ts';

/** Longest title kept, in characters. */
export const TITLE_MAX = 200;

// Prompts Claude Code writes on the user's behalf (slash commands, `!cmd` shell input, hook output).
const GENERATED_PROMPT = /^<(?:command-|local-command-|bash-|system-reminder|user-prompt-submit-hook)/;

export function oneLine(text: string, max = TITLE_MAX): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/**
 * The text of a user record typed by a person, or null for tool results, meta records, sidechains
 * and generated prompts.
 */
export function humanPromptText(record: Json): string | null {
  if (record.isMeta === true || record.isSidechain === true || record.toolUseResult !== undefined) return null;
  const message = asObject(record.message);
  if (!message) return null;
  const content = message.content;
  let text: string | null = null;
  if (typeof content === 'string') {
    text = content;
  } else if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const block of content) {
      const b = asObject(block);
      if (!b) continue;
      if (b.type === 'tool_result') return null;
      const t = b.type === 'text' ? asString(b.text) : null;
      if (t && !t.startsWith('<system-reminder>')) parts.push(t);
    }
    text = parts.join(' ');
  }
  if (!text) return null;
  const trimmed = text.trim();
  if (!trimmed || GENERATED_PROMPT.test(trimmed) || trimmed.startsWith('[Request interrupted')) return null;
  return oneLine(trimmed);
}

const PR_URL = /https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/pull\/\d+/g;

/** GitHub PR URLs printed in a user record's tool results (e.g. `gh pr create` output). */
export function prLinksInToolResults(record: Json): string[] {
  const message = asObject(record.message);
  if (!message || !Array.isArray(message.content)) return [];
  const found: string[] = [];
  for (const block of message.content) {
    const b = asObject(block);
    if (!b || b.type !== 'tool_result') continue;
    const c = b.content;
    if (typeof c === 'string') found.push(...matchPrUrls(c));
    else if (Array.isArray(c)) for (const part of c) found.push(...matchPrUrls(asString(asObject(part)?.text) ?? ''));
  }
  return found;
}

export function matchPrUrls(text: string): string[] {
  // Tool output can be large; PR links of interest are in the first part of it.
  return text.length === 0 ? [] : [...text.slice(0, 64 * 1024).matchAll(PR_URL)].map((m) => m[0]);
}
