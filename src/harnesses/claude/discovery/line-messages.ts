/**
 * Reading a transcript's conversation by pages with the rule the index counts messages by (the
 * discovery fold takes them from the bytes it holds: messages.ts, pushLineMessages), line by line, so the
 * n-th message the index counts is the n-th one reading finds, malformed lines included.
 */
import type { MessagePage, TranscriptMessage } from '../../../core/transcript-message.ts';
import { elidedRanges, isBlank, parseJsonLine, parseSkeleton, readLinesFrom } from '../../../discovery/jsonl/index.ts';
import { pushLineMessages } from './messages.ts';
import type { ConversationOptions } from './messages.ts';
import { ELIDE_BYTES, HEAD_BYTES, isIgnoredLine, WHOLE_LINE_BYTES } from './transcript-lines.ts';

/** The messages of one line of a transcript, as the index counts them (reading's side of the rule). */
function lineMessages(out: TranscriptMessage[], line: Buffer, options: ConversationOptions): void {
  if (isBlank(line) || isIgnoredLine(line)) return;
  if (line.length > WHOLE_LINE_BYTES) {
    const ranges = elidedRanges();
    const skeleton = parseSkeleton(line, ELIDE_BYTES, ranges);
    if (skeleton !== undefined) pushLineMessages(out, skeleton, line, true, options, ranges);
    return;
  }
  const record = parseJsonLine(line, { linesParsed: 0, linesSkipped: 0 });
  if (record !== undefined) pushLineMessages(out, record, line, false, options);
}

/** A page of a transcript's conversation (every message's whole text), positions as the index counts them. */
export function pageClaudeLines(file: string, from: number, limit: number, maxLineBytes: number): MessagePage {
  const messages: MessagePage['messages'] = [];
  const scratch: TranscriptMessage[] = [];
  let total = 0;
  readLinesFrom(file, 0, {
    line(bytes) {
      scratch.length = 0;
      lineMessages(scratch, bytes, {});
      for (const m of scratch) {
        const position = total++;
        if (position >= from && messages.length < limit) messages.push({ ...m, position });
      }
    },
    oversize() {},
  }, { maxLineBytes, headBytes: HEAD_BYTES });
  const end = from + messages.length;
  return { messages, total, next: end < total ? end : null };
}
