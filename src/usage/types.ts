/**
 * The Spend domain: usage records rolled up into reports by period, session, model, harness or repo.
 * The store implements UsageRepository (src/store/usage.ts); the report is pure (report.ts).
 */
import type { Harness } from '../core/session.ts';
import type { UsageTokens } from '../core/usage-record.ts';

export type { UsageRecord, UsageTokens } from '../core/usage-record.ts';

export const USAGE_GROUPS = ['day', 'week', 'month', 'session', 'model', 'harness', 'repo'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** What a row's parts are split by (the board's stacked bars). */
export const USAGE_SPLITS = ['harness', 'model', 'repo'] as const;
export type UsageSplit = (typeof USAGE_SPLITS)[number];

/** Records rolled up per session, harness, model and quarter hour (the grain every time zone's days are made of). */
export interface UsageRollupRow {
  sessionId: string;
  harness: Harness;
  model: string;
  /** floor(epoch ms / 900 000): the UTC quarter hour. Every zone offset in use is a multiple of 15 minutes. */
  quarter: number;
  tokens: UsageTokens;
  /** Sum of the USD the harness recorded, over `recorded` of the `count` records. */
  recordedUsd: number;
  recorded: number;
  count: number;
  /** The row's cost (figures.ts `rowCost`), when whoever made the row worked it out with it. */
  cost?: number | null;
  /** A small integer standing for `sessionId` among the rows of one rollup (counting sessions by number is faster). */
  sessionNo?: number;
}

export interface UsageRange {
  /** Epoch ms, inclusive. */
  fromMs?: number;
  /** Epoch ms, exclusive. */
  toMs?: number;
  harness?: Harness;
}

/** What one stored record adds to (count 1) or takes from (count -1, a replaced version) the rollup. */
export interface UsageDelta {
  /** `<harness>\0<key>` of the stored record: where it sorts among the store's pages (UsageRepository.page). */
  record: string;
  sessionId: string;
  harness: Harness;
  model: string;
  /** Epoch ms. */
  at: number;
  tokens: UsageTokens;
  recordedUsd: number;
  recorded: number;
  count: number;
}

export interface UsageChange {
  harnesses: Harness[];
  deltas: UsageDelta[];
}

/** A page of stored records as deltas (count 1 each), and where the next page starts (null: the end). */
export interface UsagePage {
  records: UsageDelta[];
  next: string | null;
}

export interface UsageRepository {
  /** The stored records rolled up by SQLite in one query (tests; the daemon reads pages and keeps its own rollup). */
  rollup(range: UsageRange): Promise<UsageRollupRow[]>;
  /** The stored records in pages of `limit`, from `cursor` (null: the first), so a reader can yield between pages. */
  page(cursor: string | null, limit: number): Promise<UsagePage>;
  /** Marks a budget alert sent (`daily` with `2026-12-01`, `monthly` with `2026-12`); false when it already was, so each crossing notifies once, across restarts. */
  claimAlert(kind: 'daily' | 'monthly', period: string): Promise<boolean>;
  /** Called after records were written and committed, with what changed. Returns an unsubscribe. */
  onRecorded(listener: (change: UsageChange) => void): () => void;
}

export interface UsageQuery {
  by: UsageGroup;
  /** IANA time zone the days are cut in. */
  tz: string;
  /** Local dates (YYYY-MM-DD), both inclusive. */
  since?: string;
  until?: string;
  harness?: Harness;
  split?: UsageSplit;
  /** Most rows (after sorting); absent: all. */
  limit?: number;
}

export interface UsageFigures {
  tokens: UsageTokens;
  /** USD, or null when some tokens are on a model without a price (never $0 for them). */
  costUsd: number | null;
  /** The priced part of the cost (what costUsd would be without the unpriced tokens). */
  pricedUsd: number;
  /** Tokens on models the price table does not know, and those models. */
  unpricedTokens: number;
  unpricedModels: string[];
  sessions: number;
  /** Usage records (API messages or turns) counted. */
  messages: number;
}

export interface UsagePart extends UsageFigures {
  key: string;
}

export interface UsageRow extends UsageFigures {
  key: string;
  /** by session: the session's title and harness; by repo: nothing more. */
  label?: string;
  harness?: Harness;
  /** With `split`: the row cut by harness, model or repo, largest first. */
  parts?: UsagePart[];
}

export interface UsageReport {
  by: UsageGroup;
  tz: string;
  since: string | null;
  until: string | null;
  rows: UsageRow[];
  totals: UsageFigures;
  /** The price table's date and source. */
  prices: { asOf: string; source: string };
}

/** What the report needs to know about a session (from the hub): its repo, branch and title. */
export interface SessionFacts {
  repo: string | null;
  branch: string | null;
  title: string;
}
