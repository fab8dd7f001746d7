/**
 * One message of a transcript, normalised: what search indexes and what GET
 * /api/sessions/<harness>/<id>/messages pages through. Each harness maps its own records to these
 * roles inside its adapter; a message's `position` is its ordinal among the messages its file yields
 * (0-based), the same whether the file is folded incrementally by the index or read whole.
 */
export const MESSAGE_ROLES = ['user', 'assistant', 'tool-call', 'tool-result', 'system'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export interface TranscriptMessage {
  role: MessageRole;
  /** Plain text (markdown at most); never rendered as HTML. Tool calls: name, then file paths or the command. */
  text: string;
  /** ISO time of the record, when the transcript records one. */
  at: string | null;
}

/** A message with its position in the transcript. */
export interface PositionedMessage extends TranscriptMessage {
  position: number;
}

/** A page of a session's conversation. */
export interface MessagePage {
  messages: PositionedMessage[];
  /** Position to ask for next; null at the end. */
  next: number | null;
  /** Messages in the transcript. */
  total: number;
}

/** Longest text kept per message, in characters: search and reading cut longer ones (a pasted log). */
export const MESSAGE_TEXT_MAX = 32 * 1024;

export function clipMessageText(text: string, max = MESSAGE_TEXT_MAX): string {
  // Cut before trimming: a megabyte of tool output is not scanned end to end to keep its first 32 KiB.
  const t = (text.length > max + 1024 ? text.slice(0, max + 1024) : text).trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
