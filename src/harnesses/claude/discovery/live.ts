/**
 * Which registry entries are live: the pid must run now, with the start time Claude recorded
 * (`procStart` = /proc/<pid>/stat field 22; a different value means the pid was reused), and the
 * process must be Claude Code. Everything else is a SIGKILL leftover (stale): counted, ignored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcInfo, ProcPort } from '../../../discovery/proc/types.ts';
import { isNotRegularFile, readRegularText } from '../../../discovery/regular-file/index.ts';
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

function readEntry(file: string, pid: number): Read {
  let text: string;
  try {
    text = readRegularText(file, MAX_ENTRY_BYTES);
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
  for (const name of names) {
    const pid = registryFilePid(name);
    if (pid === null) continue;
    const file = path.join(options.sessionsDir, name);
    take(file, pid, readEntry(file, pid), false);
  }
  if (torn.length > 0) {
    // Claude rewrites the file in place; a reader can catch it half-written. Read once more shortly after.
    await sleep(options.tornRetryMs ?? 30);
    for (const [file, pid] of torn) take(file, pid, readEntry(file, pid), true);
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
