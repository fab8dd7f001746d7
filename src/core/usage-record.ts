/**
 * One usage record: what one API message (or one turn, where a harness records no finer grain) spent.
 * Sources emit them while they fold new transcript bytes into their index summaries (no second pass
 * over the files); the store keeps them keyed by `key`, so a message seen again — a content block's
 * repeat, a resume that re-reads, a fork's copy — is one record.
 */
import type { Harness } from '../harnesses/registry.ts';

export interface UsageTokens {
  /** Uncached input tokens (cache reads and writes excluded, as in Session.tokens). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Reasoning tokens where the harness records them (already inside `output`, never priced twice). */
  reasoning: number;
}

export interface UsageRecord {
  harness: Harness;
  /**
   * Identity of the API message within its harness: the same message read from two files (a fork's
   * copy) or twice (a re-read) has the same key. Claude: `<message id>:<request id>`; Codex:
   * `<thread>:<running total after it>`; others: session and message id.
   */
  key: string;
  /** The session it is counted for. */
  sessionId: string;
  /**
   * 0 for a message the session made itself, 1 for a copy another session made (a fork's copied
   * history): when two files hold one key, the lower rank owns it.
   */
  rank: 0 | 1;
  /** Epoch ms of the message. */
  at: number;
  /** The model as the harness names it; '' when unknown. */
  model: string;
  tokens: UsageTokens;
  /** USD the harness itself recorded for this message (pi, omp, OpenCode); null: priced from the table. */
  costUsd: number | null;
}
