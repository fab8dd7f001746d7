/**
 * A page of one JSONL transcript's conversation: the file is read from its start with the same
 * filter and line bound the incremental index uses, so the n-th message found here is the one the
 * search index gave position n. Costs one pass over the file; only the page's messages are kept.
 */
import type { MessagePage, TranscriptMessage } from '../../core/transcript-message.ts';
import { readJsonlFrom, type JsonlReadOptions } from './jsonl-reader.ts';

export function pageConversation(
  file: string,
  read: Pick<JsonlReadOptions, 'ignore' | 'headBytes' | 'maxLineBytes'>,
  messagesOf: (record: unknown) => readonly TranscriptMessage[],
  from: number,
  limit: number,
): MessagePage {
  const messages: MessagePage['messages'] = [];
  let total = 0;
  readJsonlFrom(file, 0, (rec) => {
    for (const m of messagesOf(rec)) {
      const position = total++;
      if (position >= from && messages.length < limit) messages.push({ ...m, position });
    }
  }, read);
  const end = from + messages.length;
  return { messages, total, next: end < total ? end : null };
}

/**
 * The messages of the complete lines in bytes [from, to) of a transcript, read with the same filter
 * and line bound as pageConversation, so that the index's positions (counted over these) and reading
 * agree. The discovery fold reads those bytes first (from bytes, often without a whole parse); this
 * reads them again for search, from the page cache. `to` is where that fold stopped: a line appended
 * meanwhile is left to the next read.
 */
export function messagesBetween(
  file: string,
  from: number,
  to: number,
  read: Pick<JsonlReadOptions, 'ignore' | 'headBytes' | 'maxLineBytes'>,
  messagesOf: (record: unknown) => readonly TranscriptMessage[],
): TranscriptMessage[] {
  const items: TranscriptMessage[] = [];
  if (to <= from) return items;
  readJsonlFrom(file, from, (rec) => {
    for (const m of messagesOf(rec)) items.push(m);
  }, { ...read, maxBytes: to - from });
  return items;
}
