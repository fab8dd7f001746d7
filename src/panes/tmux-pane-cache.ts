/**
 * Reuse of the last `tmux list-panes` answer while the server's panes are provably the same.
 * Every pane's first process is forked by the tmux server and owns the pane's pty, so the set of
 * the server's tty-owning children (pid and start time) changes whenever a pane is created, dies or
 * is respawned. The map is rebuilt on every focus that misses and every couple of seconds for the
 * board; on a loaded host one client exec costs 100–300 ms (more than the whole /proc read), so a
 * rebuild that finds the same signature skips it. Jobs the server runs (`run-shell`, status `#()`)
 * have no tty and do not count; one that does only costs a fresh listing.
 */
import type { ProcessTable } from '../discovery/proc/types.ts';
import type { PaneInfo } from './types.ts';

/** `<server start>|<pid:start,…>` of the server's tty-owning children; null when the server is not in the table. */
export function paneSignature(table: ProcessTable, serverPid: number): string | null {
  const server = table.byPid.get(serverPid);
  if (!server) return null;
  const kids: string[] = [];
  for (const pid of table.children.get(serverPid) ?? []) {
    const p = table.byPid.get(pid);
    if (p && p.ttyNr !== 0) kids.push(`${pid}:${p.startTicks}`);
  }
  return `${server.startTicks}|${kids.sort().join(',')}`;
}

export interface PaneListCache {
  /** The cached panes when `table` shows the same pane processes and the entry is younger than the TTL. */
  get(table: ProcessTable, now: number): PaneInfo[] | undefined;
  /** Remembers a listing taken after `table` was read (a pane made in between only makes the next get miss). */
  set(panes: PaneInfo[], serverPid: number | null, table: ProcessTable, now: number): void;
  /** Forgets the listing (a fresh one was asked for: the cached one may be what misled the caller). */
  clear(): void;
}

/** `ttlMs`: a hit older than this lists afresh anyway, so labels and cwds do not stay stale. */
export function createPaneListCache(ttlMs: number): PaneListCache {
  let entry: { panes: PaneInfo[]; serverPid: number; signature: string; at: number } | null = null;
  return {
    get(table, now) {
      if (!entry || now - entry.at > ttlMs) return undefined;
      return paneSignature(table, entry.serverPid) === entry.signature ? entry.panes : undefined;
    },
    set(panes, serverPid, table, now) {
      const signature = serverPid === null ? null : paneSignature(table, serverPid);
      entry = serverPid === null || signature === null ? null : { panes, serverPid, signature, at: now };
    },
    clear() {
      entry = null;
    },
  };
}
