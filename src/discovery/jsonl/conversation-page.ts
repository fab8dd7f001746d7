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
