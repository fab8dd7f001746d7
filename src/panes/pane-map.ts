/**
 * pid → pane. Two passes over the panes (the first wins):
 * 1. every foreground process of a pane maps to it — the members of the foreground process group
 *    of the pane's tty (read from the shell's tpgid), plus any the manager reports itself (herdr);
 * 2. every descendant of the pane's shell maps to it unless pass 1 already placed it: an agent is
 *    not always in the foreground (a command it ran took the terminal, or it is suspended).
 * The descendant walk visits each pid once, so a table with a cycle (pid reuse mid-snapshot) ends.
 */
import type { ProcInfo, ProcessTable } from '../discovery/proc/types.ts';
import type { PaneInfo, PaneRef } from './types.ts';

export interface PaneMap {
  /** The pane hosting `pid`, if any. */
  get(pid: number): PaneRef | undefined;
  /**
   * The pane whose terminal `pid` is in the foreground of (pass 1): keys typed into that pane reach
   * this process. Undefined for a process only descended from the pane's shell (a suspended agent, or
   * one whose command took the terminal).
   */
  foreground(pid: number): PaneRef | undefined;
  /** The process as the table the map was built from saw it (its start time guards against pid reuse). */
  process(pid: number): ProcInfo | undefined;
  readonly size: number;
  readonly panes: readonly PaneInfo[];
  /** When the map was built (ms since epoch). */
  readonly builtAtMs: number;
}

export function buildPaneMap(panes: readonly PaneInfo[], table: ProcessTable, builtAtMs = Date.now()): PaneMap {
  const map = new Map<number, PaneRef>();
  const fg = new Map<number, PaneRef>();
  // Index processes by controlling tty once, so pass 1 stays linear in the table size.
  const byTty = new Map<number, ProcInfo[]>();
  for (const p of table.byPid.values()) {
    if (p.ttyNr === 0) continue;
    const list = byTty.get(p.ttyNr);
    if (list) list.push(p);
    else byTty.set(p.ttyNr, [p]);
  }
  for (const pane of panes) {
    for (const pid of pane.foregroundPids) if (!map.has(pid)) map.set(pid, pane.ref);
    const shell = table.byPid.get(pane.shellPid);
    if (!shell || shell.ttyNr === 0 || shell.tpgid <= 0) continue;
    for (const p of byTty.get(shell.ttyNr) ?? []) {
      if (p.pgrp === shell.tpgid && !map.has(p.pid)) map.set(p.pid, pane.ref);
    }
  }
  for (const [pid, ref] of map) fg.set(pid, ref);
  for (const pane of panes) {
    const seen = new Set<number>();
    const queue = [pane.shellPid];
    for (let i = 0; i < queue.length; i++) {
      const pid = queue[i] as number;
      if (seen.has(pid)) continue;
      seen.add(pid);
      if (!map.has(pid)) map.set(pid, pane.ref);
      for (const child of table.children.get(pid) ?? []) if (!seen.has(child)) queue.push(child);
    }
  }
  return { get: (pid) => map.get(pid), foreground: (pid) => fg.get(pid), process: (pid) => table.byPid.get(pid), size: map.size, panes, builtAtMs };
}

/** The pane of the first of `pids` that has one (the main pid first). */
export function paneOfPids(map: PaneMap, pids: readonly number[]): PaneRef | undefined {
  for (const pid of pids) {
    const ref = map.get(pid);
    if (ref) return ref;
  }
  return undefined;
}
