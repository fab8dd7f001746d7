/**
 * Which registry entries are live: the pid must run now, with the start time Claude recorded
 * (`procStart` = /proc/<pid>/stat field 22; a different value means the pid was reused), and the
 * process must be Claude Code. Everything else is a SIGKILL leftover (stale): counted, ignored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcInfo, ProcPort } from '../../../discovery/proc/types.ts';
import { isNotRegularFile, readRegularText, statRegularFile } from '../../../discovery/regular-file/index.ts';
import { parseRegistryEntry, registryFilePid } from './registry.ts';
import type { RegistryEntry } from './registry.ts';

export interface RegistryScan {
  live: RegistryEntry[];
  /** Entries whose process is gone, reused, or another program. */
  stale: string[];
  /** Files that could not be used (unreadable, still torn after a re-read, wrong shape). */
  skipped: number;
  /** Of `skipped`: entries that were not regular files (FIFO, socket, device, directory), never read. */
  notRegular: number;
  errors: string[];
}

export interface RegistryScanOptions {
  sessionsDir: string;
  proc: ProcPort;
  /** Wait before re-reading a torn file, in ms. Default: 30. */
  tornRetryMs?: number;
  /** Entries kept from earlier scans (a source keeps one across its scans). Default: none, every file is read. */
  cache?: RegistryReadCache;
  /** How a file's text is read. Default: readRegularText (a regular file of at most 1 MiB). */
  readText?: (file: string) => string;
  /** With `cache`: how old a file's mtime and ctime must be for its entry to be kept, ms. Default: 1000. */
  settledMs?: number;
  /** The same where the file system keeps sub-second timestamps (settleMsOf). Default: 100. */
  fineSettledMs?: number;
}

/**
 * Registry entries read by earlier scans, by file, with the stat they were read at: a file whose
 * inode, size, mtime and ctime are all unchanged is not opened again. Every listing reads the registry
 * (a rescan, each change of any session), and fifty live sessions are fifty files, most of them
 * untouched since their last status change.
 */
export type RegistryReadCache = Map<string, { ino: number; size: number; mtimeMs: number; ctimeMs: number; entry: RegistryEntry }>;

/**
 * A file written this recently is read again at every scan: a rewrite within its timestamps'
 * granularity (the same size, and the same mtime and ctime) would not show in its stat. Once both are
 * older than this, any later write sets them to a time after the read.
 */
const SETTLED_MS = 1000;
/**
 * The same on a file system that keeps sub-second timestamps (ext4, xfs, btrfs, tmpfs): the kernel
 * stamps them from a clock that moves every tick (1 to 10 ms), so a write 100 ms after another gets
 * a later time. A daemon started right after its sessions then keeps their entries from its first
 * listing instead of reading them all again at the first safety rescan.
 */
const FINE_SETTLED_MS = 100;

/**
 * How long a file must have stood unchanged for a stat to tell any later write: `fine` when both its
 * mtime and ctime have a part below the second (a file system with sub-second timestamps; one with
 * whole seconds, or two like FAT, never has one), else `coarse`.
 */
export function settleMsOf(st: { mtimeMs: number; ctimeMs: number }, coarse: number, fine: number): number {
  return st.mtimeMs % 1000 !== 0 && st.ctimeMs % 1000 !== 0 ? fine : coarse;
}

const CLAUDE_NAME = /^claude(?:\.exe)?$/;
/** From this many registry entries on, they are checked against one snapshot of the process table. */
const SNAPSHOT_FROM = 16;
/** A registry entry is a few hundred bytes; anything near this is not one. */
const MAX_ENTRY_BYTES = 1024 * 1024;

/**
 * Is this process Claude Code? The npm package runs `…/@anthropic-ai/claude-code/bin/claude.exe`;
 * the native installer runs `~/.local/share/claude/versions/<version>` under the name `claude`;
 * old npm builds were `node …/@anthropic-ai/claude-code/cli.js`.
 */
export function isClaudeProcess(info: ProcInfo): boolean {
  const exe = info.exe ?? '';
  if (CLAUDE_NAME.test(path.basename(exe)) || exe.includes('/claude-code/') || exe.includes('/claude/versions/')) return true;
  const argv0 = info.argv[0] ?? '';
  if (CLAUDE_NAME.test(path.basename(argv0))) return true;
  return (info.argv[1] ?? '').includes('/@anthropic-ai/claude-code/');
}

/** Slack between Claude's own startedAt and the kernel's start time, in ms. */
const START_SLACK_MS = 10_000;

/** Why `entry` is not live now, or null when it is. Reads the process fresh. */
export function staleReason(entry: RegistryEntry, proc: ProcPort): string | null {
  const ticks = proc.startTicks(entry.pid);
  if (ticks === null) return 'process gone';
  if (entry.procStart !== null && ticks !== entry.procStart) return 'pid reused (procStart differs)';
  return staleReasonOf(entry, proc.read(entry.pid));
}

/** Why `entry` is not live, given its pid's process as read (undefined: none, or a zombie). */
export function staleReasonOf(entry: RegistryEntry, info: ProcInfo | undefined): string | null {
  if (!info) return 'process gone';
  if (entry.procStart !== null && info.startTicks !== entry.procStart) return 'pid reused (procStart differs)';
  if (!isClaudeProcess(info)) return 'pid belongs to another program';
  // Without procStart, a process started well after the entry was written cannot be its writer.
  if (entry.procStart === null && entry.startedAt !== null && info.startedAtMs > entry.startedAt + START_SLACK_MS) {
    return 'pid reused (started after the entry)';
  }
  return null;
}

type Read =
  | { kind: 'entry'; entry: RegistryEntry }
  | { kind: 'torn' }
  | { kind: 'skip'; error?: string; notRegular?: boolean }
  | { kind: 'gone' };

function readEntry(file: string, pid: number, readText?: (file: string) => string): Read {
  let text: string;
  try {
    text = readText ? readText(file) : readRegularText(file, MAX_ENTRY_BYTES);
  } catch (e) {
    if (isNotRegularFile(e)) return { kind: 'skip', error: e.message, notRegular: true };
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'gone' }; // removed by a clean exit meanwhile
    return { kind: 'skip', error: `${file}: ${code ?? 'read failed'}` }; // EACCES, EFBIG...
  }
  const parsed = parseRegistryEntry(text, pid);
  if (parsed.ok) return { kind: 'entry', entry: parsed.entry };
  return parsed.torn ? { kind: 'torn' } : { kind: 'skip', error: `${file}: ${parsed.reason}` };
}

/** readEntry through the cache: an unchanged settled file gives a copy of what it gave before. */
function readThroughCache(file: string, pid: number, cache: RegistryReadCache, settle: { coarse: number; fine: number }, readText?: (file: string) => string): Read {
  const now = Date.now();
  let st: fs.Stats;
  try {
    st = statRegularFile(file);
  } catch {
    cache.delete(file);
    return readEntry(file, pid, readText); // gone, not regular, unreadable: the read says which
  }
  const hit = cache.get(file);
  if (hit && hit.ino === st.ino && hit.size === st.size && hit.mtimeMs === st.mtimeMs && hit.ctimeMs === st.ctimeMs) {
    return { kind: 'entry', entry: { ...hit.entry } };
  }
  const r = readEntry(file, pid, readText);
  // Kept only when settled before the stat: a write after the stat changes what the next stat says.
  const settledMs = settleMsOf(st, settle.coarse, settle.fine);
  if (r.kind === 'entry' && st.mtimeMs < now - settledMs && st.ctimeMs < now - settledMs) {
    cache.set(file, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, entry: { ...r.entry } });
  } else cache.delete(file);
  return r;
}

export async function scanRegistry(options: RegistryScanOptions): Promise<RegistryScan> {
  const result: RegistryScan = { live: [], stale: [], skipped: 0, notRegular: 0, errors: [] };
  let names: string[];
  try {
    names = fs.readdirSync(options.sessionsDir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') result.errors.push(`${options.sessionsDir}: ${code ?? 'readdir failed'}`);
    return result;
  }
  const entries: RegistryEntry[] = [];
  const torn: Array<[string, number]> = [];
  const take = (file: string, pid: number, r: Read, last: boolean): void => {
    if (r.kind === 'entry') entries.push(r.entry);
    else if (r.kind === 'torn' && !last) torn.push([file, pid]);
    else if (r.kind === 'torn' || r.kind === 'skip') {
      result.skipped++;
      if (r.kind === 'skip' && r.notRegular) result.notRegular++;
      result.errors.push(r.kind === 'skip' && r.error ? r.error : `${file}: torn JSON after a re-read`);
    }
  };
  const { cache, readText } = options;
  const settle = { coarse: options.settledMs ?? SETTLED_MS, fine: options.fineSettledMs ?? FINE_SETTLED_MS };
  const listed = new Set<string>();
  for (const name of names) {
    const pid = registryFilePid(name);
    if (pid === null) continue;
    const file = path.join(options.sessionsDir, name);
    listed.add(file);
    take(file, pid, cache ? readThroughCache(file, pid, cache, settle, readText) : readEntry(file, pid, readText), false);
  }
  if (cache) for (const file of cache.keys()) if (!listed.has(file)) cache.delete(file);
  if (torn.length > 0) {
    // Claude rewrites the file in place; a reader can catch it half-written. Read once more shortly after.
    await sleep(options.tornRetryMs ?? 30);
    for (const [file, pid] of torn) take(file, pid, readEntry(file, pid, readText), true);
  }
  // Many entries: one read of the process table (shared with the other sources listing in the same
  // turn, as a rescan does) instead of two reads per entry.
  const table = entries.length >= SNAPSHOT_FROM ? options.proc.snapshot() : null;
  for (const entry of entries) {
    const reason = table ? staleReasonOf(entry, table.byPid.get(entry.pid)) : staleReason(entry, options.proc);
    if (reason === null) result.live.push(entry);
    else result.stale.push(`${path.join(options.sessionsDir, `${entry.pid}.json`)}: ${reason}`);
  }
  return result;
}
