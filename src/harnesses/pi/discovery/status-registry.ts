/**
 * The status extension's registry: a pi or omp process that loads it
 * keeps `<dir>/<pid>.json` = {pid, sessionId, sessionFile, cwd, status: busy|idle, updatedAt}, written
 * by rename and deleted on session_shutdown. A SIGKILLed process leaves its file behind, so every
 * entry is checked against the process table before it counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProcInfo, ProcessTable } from '../../../discovery/proc/types.ts';
import { isUuid } from '../../../core/ids.ts';
import { isNotRegularFile, readRegularFile } from '../../../discovery/regular-file/index.ts';
import { asObj, num, str } from './records.ts';

export interface RegistryEntry {
  pid: number;
  sessionId: string | null;
  sessionFile: string | null;
  state: 'busy' | 'idle';
  updatedAt: string | null;
}

export interface RegistryRead {
  /** Valid entries whose process is alive and is the expected harness, by pid. */
  entries: Map<number, RegistryEntry>;
  /** Leftovers: dead pid, pid now another program or a later process, unreadable or malformed content. */
  stale: number;
  /** Of `stale`: entries that were not regular files (FIFO, socket, device, directory), never read. */
  notRegular: number;
}

/** Registry files are tiny; anything bigger is not one and is not read. */
const MAX_BYTES = 64 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** A registry entry is written after its process starts; one dated earlier belongs to a previous owner of the pid. */
const START_SLACK_MS = 2000;

/**
 * `isHarness` accepts this source's processes; `isSibling` the other pi-family harness, whose live
 * entries in a shared directory are left alone rather than counted stale.
 */
export function readStatusRegistry(
  dir: string | null,
  table: ProcessTable,
  isHarness: (p: ProcInfo) => boolean,
  isSibling: (p: ProcInfo) => boolean,
): RegistryRead {
  const out: RegistryRead = { entries: new Map(), stale: 0, notRegular: 0 };
  if (dir === null) return out;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const m = /^(\d+)\.json$/.exec(name);
    if (!m) continue;
    const entry = parseEntry(path.join(dir, name), Number(m[1]), out);
    const proc = entry ? table.byPid.get(entry.pid) : undefined;
    if (entry && proc && !isHarness(proc) && isSibling(proc)) continue;
    if (!entry || !proc || !isHarness(proc) || !startedBefore(proc, entry)) { out.stale++; continue; }
    out.entries.set(entry.pid, entry);
  }
  return out;
}

function parseEntry(file: string, pidFromName: number, out: RegistryRead): RegistryEntry | undefined {
  try {
    const { bytes } = readRegularFile(file, MAX_BYTES);
    if (bytes.length === 0) return undefined;
    const o = asObj(JSON.parse(strictUtf8.decode(bytes)));
    const pid = num(o?.['pid']);
    const status = o?.['status'];
    if (!o || pid !== pidFromName || (status !== 'busy' && status !== 'idle')) return undefined;
    const sessionId = str(o['sessionId']);
    const updatedAt = num(o['updatedAt']);
    return {
      pid,
      sessionId: sessionId !== undefined && isUuid(sessionId) ? sessionId.toLowerCase() : null,
      sessionFile: str(o['sessionFile']) ?? null,
      state: status,
      updatedAt: updatedAt === undefined ? null : new Date(updatedAt).toISOString(),
    };
  } catch (e) {
    if (isNotRegularFile(e)) out.notRegular++;
    return undefined;
  }
}

function startedBefore(proc: ProcInfo, entry: RegistryEntry): boolean {
  return entry.updatedAt === null || proc.startedAtMs <= Date.parse(entry.updatedAt) + START_SLACK_MS;
}

