/** Tolerant, incremental JSONL reading shared by every transcript-based source. */
export { isBlank, parseJsonLine, readJsonlFrom } from './jsonl-reader.ts';
export { readLinesFrom } from './line-reader.ts';
export { latin1Text, utf8Text } from './byte-text.ts';
export type { LineReadOptions, LineReadResult, LineSink } from './line-reader.ts';
export { ELIDED, elidedRanges, elidedSpan, isElided, parseSkeleton } from './skeleton.ts';
export type { ElidedRanges } from './skeleton.ts';
export { ElidedText } from './elided-text.ts';
export type { JsonlReadOptions, JsonlReadResult, OnRecord } from './jsonl-reader.ts';
export { readJsonlTail } from './jsonl-tail.ts';
export type { JsonlTailOptions } from './jsonl-tail.ts';
export { pageConversation } from './conversation-page.ts';
