/** Tolerant, incremental JSONL reading shared by every transcript-based source. */
export { readJsonlFrom } from './jsonl-reader.ts';
export type { JsonlReadOptions, JsonlReadResult, OnRecord } from './jsonl-reader.ts';
export { readJsonlTail } from './jsonl-tail.ts';
export type { JsonlTailOptions } from './jsonl-tail.ts';
export { pageConversation } from './conversation-page.ts';
