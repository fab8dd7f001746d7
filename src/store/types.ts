/**
 * The store's typed repositories. Repositories that a fleet would share (all but the transcript
 * index) are async so a PostgreSQL implementation can satisfy the same interface; the transcript
 * index is a per-host cache of per-host files and stays synchronous (it is read in the scan's hot loop).
 */
import type { TranscriptIndex } from '../discovery/contract.ts';
import type { Settings } from './settings.ts';
import type { GoalsRepository } from '../goals/index.ts';
import type { LaunchesRepository } from '../launch/types.ts';
import type { BoardRepository } from '../board/ports.ts';
import type { ActionsRepository } from './actions.ts';
import type { PagesRepository } from '../pager/types.ts';
import type { OutboxRepository } from '../fleet/types.ts';
import type { UsageRepository } from '../usage/types.ts';
import type { SearchRepository } from '../search/types.ts';
import type { WorktreesRepository } from '../worktrees/types.ts';

export interface SettingsRepository {
  /** Every known setting, stored values over defaults. */
  all(): Promise<Settings>;
  /** Validates and stores a partial update; returns the full settings after it. */
  update(patch: Record<string, unknown>): Promise<Settings>;
}

export interface Store {
  readonly kind: 'sqlite';
  readonly schemaVersion: number;
  settings: SettingsRepository;
  transcriptIndex: TranscriptIndex;
  /** Usage records (written through the transcript index) and budget alerts sent (migration 7). */
  usage: UsageRepository;
  /** Full-text search over transcripts (written through the transcript index; migration 9). */
  search: SearchRepository;
  /** Operator pages (questions and notices from agents). */
  pages: PagesRepository;
  /** The action log (focus, resume, end: who, what, outcome). */
  actions: ActionsRepository;
  /** The board: character packs, choices, the canvas scene. */
  board: BoardRepository;
  /** Launch records of `muster <harness>` runs (migration 5). */
  launches: LaunchesRepository;
  /** Goals driven by the auditor (migration 6). */
  goals: GoalsRepository;
  /** The fleet outbox: changes waiting to be published to the fleet's PostgreSQL (migration 9; empty unless joined). */
  fleetOutbox: OutboxRepository;
  /** Worktrees Muster created for new sessions (migration 8). */
  worktrees: WorktreesRepository;
  /** Closes the database. Idempotent. */
  close(): void;
}
