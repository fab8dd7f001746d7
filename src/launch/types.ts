/**
 * A launch: one `muster <harness>` run. The wrapper registers it before the harness starts, so
 * hook events and pages that carry its launch id attribute to it; the session id is filled in
 * once known (pre-assigned for Claude, learnt from the first hook event for the others).
 */
import type { Harness } from '../core/session.ts';

export interface LaunchRecord {
  /** `lch_` + time-sortable id (launch-id.ts). */
  id: string;
  harness: Harness;
  /** The --name given to the wrapper; null when none. */
  name: string | null;
  /** The harness process (the wrapper's child); null until spawned. */
  pid: number | null;
  /** ISO time the wrapper started. */
  startedAt: string;
  cwd: string;
  sessionId: string | null;
  /** ISO time the harness exited, and its exit code; null while running. */
  endedAt: string | null;
  exitCode: number | null;
}

export interface LaunchPatch {
  pid?: number;
  sessionId?: string;
  endedAt?: string;
  exitCode?: number;
}

/** Fleet-shared, hence async (a PostgreSQL implementation can satisfy it later). */
export interface LaunchesRepository {
  insert(record: LaunchRecord): Promise<void>;
  /** Applies a patch; returns the record after it, or undefined for an unknown id. */
  update(id: string, patch: LaunchPatch): Promise<LaunchRecord | undefined>;
  get(id: string): Promise<LaunchRecord | undefined>;
  /** Newest first; `limit` defaults to 100 and is capped at 1000. */
  list(filter?: { running?: boolean; limit?: number }): Promise<LaunchRecord[]>;
}
