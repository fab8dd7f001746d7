/**
 * omp's run files `<ompHome>/run/daemons/<hash>/clients/<pid>-<uuid>.json` =
 * {"pid":29943,"id":"29943-66cd…","projectDir":"/home/dev/project-omp"}.
 * Interactive and RPC processes create one; an RPC exit on stdin close and a SIGKILL leave it behind,
 * so a file proves nothing by itself: its pid must be alive, be omp, and have started before the
 * file was written (else the pid was reused). Everything that fails is a stale leftover, counted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProcInfo, ProcessTable } from '../../../discovery/proc/types.ts';
import { isNotRegularFile, readRegularFile } from '../../../discovery/regular-file/index.ts';

export interface RunClient {
  pid: number;
  projectDir: string | null;
  file: string;
}

export interface RunClientsRead {
  clients: RunClient[];
  /** Dead or reused pids, other programs, empty/oversized/invalid-UTF-8/malformed files, directories. */
  stale: number;
  /** Of `stale`: entries that were not regular files (FIFO, socket, device, directory), never read. */
  notRegular: number;
}

const NAME = /^(\d+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i;
const MAX_BYTES = 64 * 1024;
const START_SLACK_MS = 2000;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function readRunClients(runDir: string, table: ProcessTable, isOmp: (p: ProcInfo) => boolean): RunClientsRead {
  const out: RunClientsRead = { clients: [], stale: 0, notRegular: 0 };
  for (const daemon of list(path.join(runDir, 'daemons'))) {
    const dir = path.join(runDir, 'daemons', daemon, 'clients');
    for (const name of list(dir)) {
      const m = NAME.exec(name);
      if (!m) continue;
      const client = readClient(path.join(dir, name), Number(m[1]), table, isOmp, out);
      if (client) out.clients.push(client); else out.stale++;
    }
  }
  return out;
}

function readClient(
  file: string, pidFromName: number, table: ProcessTable, isOmp: (p: ProcInfo) => boolean, out: RunClientsRead,
): RunClient | undefined {
  try {
    const { bytes, stats: st } = readRegularFile(file, MAX_BYTES);
    if (bytes.length === 0) return undefined;
    const parsed: unknown = JSON.parse(strictUtf8.decode(bytes));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const o = parsed as Record<string, unknown>;
    if (o['pid'] !== pidFromName) return undefined;
    const p = table.byPid.get(pidFromName);
    if (!p || !isOmp(p) || p.startedAtMs > st.mtimeMs + START_SLACK_MS) return undefined;
    return { pid: pidFromName, projectDir: typeof o['projectDir'] === 'string' ? o['projectDir'] : null, file };
  } catch (e) {
    if (isNotRegularFile(e)) out.notRegular++;
    return undefined;
  }
}

function list(dir: string): string[] {
  try { return fs.readdirSync(dir); } catch { return []; }
}
