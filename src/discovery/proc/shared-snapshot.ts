/**
 * One process-table read per turn of the event loop. A rescan lists every source at once, and five of
 * them (OpenCode, pi, omp, Copilot, Gemini) start from a snapshot of the whole table (~6 ms for 200
 * processes): the first caller of a turn reads it, the others of the same turn get that table. Nothing
 * is reused across turns, so no caller ever sees a table older than the work it is part of.
 * Tables are read-only to their callers (none changes one).
 */
import type { ProcPort, ProcessTable } from './types.ts';

export interface SharedSnapshotOptions {
  /** Schedules the end of the turn. Default: setImmediate. */
  afterTurn?: (fn: () => void) => void;
}

export function shareSnapshotPerTurn(proc: ProcPort, options: SharedSnapshotOptions = {}): ProcPort {
  const afterTurn = options.afterTurn ?? ((fn) => void setImmediate(fn));
  let table: ProcessTable | null = null;
  return {
    ...proc,
    snapshot() {
      if (table) return table;
      const fresh = proc.snapshot();
      table = fresh;
      afterTurn(() => { if (table === fresh) table = null; });
      return fresh;
    },
  };
}
