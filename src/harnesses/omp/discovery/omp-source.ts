/**
 * The omp source. omp writes pi's session format plus a padded
 * title line and `session_exit` records; a session is live only when a verified omp process claims
 * it: a held lease (builds that have one), `--resume <id>` in its argv (omp keeps its real argv), its
 * tty's `terminal-sessions` pointer, the status extension's registry, or — failing those — as the
 * newest session of its cwd written since it started. `clients/<pid>-*.json` run files are checked
 * against the process table and leftovers are counted, never trusted.
 */
import { ompResumeArgv } from '../commands.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { SessionSource, TranscriptIndex } from '../../../discovery/contract.ts';
import type { ColdIndexing } from '../../../discovery/index-pool/index.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { createGitReader } from '../../../discovery/git/index.ts';
import type { GitReader } from '../../../discovery/git/index.ts';
import { createProc } from '../../../discovery/proc/index.ts';
import type { ProcPort, ProcessTable } from '../../../discovery/proc/types.ts';
import { priceTokens } from '../../../discovery/pricing/index.ts';
import type { TokenCounts } from '../../../core/session.ts';
import { argValues, createFamilySource, isOmpProcess, isPiProcess, readStatusRegistry } from '../../pi/discovery/index.ts';
import type { LiveEvidence, LiveProcess } from '../../pi/discovery/index.ts';
import { readRunClients } from './run-files.ts';
import { ptsNumber, readTerminalPointer } from './terminal-pointers.ts';
import { ompAfterRead } from './title-line.ts';

export interface OmpSourceOptions {
  /** omp's home (`~/.omp`; resolved by the adapter). */
  home: string;
  /** Where a lease-holding omp build keeps `<id>.lock`. Default: `<home>/agent/session-owners`. */
  leaseDir?: string;
  /** The status extension's directory (see the pi source). Default: `$MUSTER_PI_STATUS_DIR`, else none. */
  statusDir?: string | null;
  proc?: ProcPort;
  index?: TranscriptIndex;
  git?: GitReader;
  clock?: () => number;
  /** Default: 15 minutes. */
  stuckAfterMs?: number;
  price?: (model: string | null, tokens: TokenCounts) => number | null;
  /** Reads a first start's unread session files in worker threads. Default: none. */
  cold?: ColdIndexing;
}

/** A pointer or run file may be dated a little before the process start we read. */
const START_SLACK_MS = 2000;

export function createOmpSource(options: OmpSourceOptions): SessionSource {
  const home = options.home;
  const statusDir = options.statusDir === undefined ? process.env['MUSTER_PI_STATUS_DIR'] || null : options.statusDir;
  const paths: OmpPaths = {
    runDir: path.join(home, 'run'),
    pointerDir: path.join(home, 'agent', 'terminal-sessions'),
    leaseDir: options.leaseDir ?? path.join(home, 'agent', 'session-owners'),
    statusDir,
  };
  const proc = options.proc ?? createProc();
  return createFamilySource({
    cold: options.cold,
    harness: 'omp',
    home,
    sessionsDir: path.join(home, 'agent', 'sessions'),
    watchDirs: [path.join(home, 'agent', 'sessions'), path.join(paths.runDir, 'daemons'), paths.pointerDir, ...(statusDir ? [statusDir] : [])],
    proc,
    index: options.index ?? createMemoryTranscriptIndex(),
    git: options.git ?? createGitReader({ ttlMs: 2000 }),
    clock: options.clock ?? Date.now,
    stuckAfterMs: options.stuckAfterMs ?? 15 * 60_000,
    price: options.price ?? priceTokens,
    isHarnessProcess: isOmpProcess,
    collectLive: (table) => collectOmpLive(table, paths, proc),
    resumeArgv: ompResumeArgv,
    // SIGTERM is omp's clean end: it writes `session_exit` {reason: sigterm} and removes its run file.
    endSignal: 'SIGTERM',
    afterRead: ompAfterRead,
  });
}

export interface OmpPaths {
  runDir: string;
  pointerDir: string;
  leaseDir: string;
  statusDir: string | null;
}

/** Every omp process with its exact claims; stale run and registry files counted. */
export function collectOmpLive(table: ProcessTable, paths: OmpPaths, proc: Pick<ProcPort, 'lockHolders'>): LiveEvidence {
  const runs = readRunClients(paths.runDir, table, isOmpProcess);
  const registry = readStatusRegistry(paths.statusDir, table, isOmpProcess, isPiProcess);
  const leases = leaseClaims(paths.leaseDir, table, proc);
  let notRegular = runs.notRegular + registry.notRegular;
  const processes: LiveProcess[] = [];
  for (const p of table.byPid.values()) {
    if (!isOmpProcess(p)) continue;
    const reg = registry.entries.get(p.pid);
    const claimIds = [...argValues(p.argv, ['--resume', '-r']), ...(leases.get(p.pid) ?? [])];
    const claimFiles = argValues(p.argv, ['--session']).filter((v) => v.includes('/')).map((v) => path.resolve(p.cwd ?? '/', v));
    if (reg?.sessionId) claimIds.push(reg.sessionId);
    if (reg?.sessionFile) claimFiles.push(reg.sessionFile);
    const pts = ptsNumber(p.ttyNr);
    const pointer = pts === null ? null : readTerminalPointer(paths.pointerDir, pts, () => notRegular++);
    if (pointer && pointer.mtimeMs >= p.startedAtMs - START_SLACK_MS) claimFiles.push(pointer.sessionFile);
    processes.push({ pid: p.pid, startedAtMs: p.startedAtMs, cwd: p.cwd, claimIds, claimFiles, exact: reg ? { state: reg.state, since: reg.updatedAt } : null });
  }
  return { processes, stale: runs.stale + registry.stale, notRegular };
}

/**
 * A documented omp lease, `<leaseDir>/<id>.lock` flocked for the life of the owning process, probed
 * without blocking or taking it. 18.2.3 has none (the directory is absent): then this finds nothing
 * and the other evidence decides.
 */
function leaseClaims(leaseDir: string, table: ProcessTable, proc: Pick<ProcPort, 'lockHolders'>): Map<number, string[]> {
  const claims = new Map<number, string[]>();
  let names: string[];
  try { names = fs.readdirSync(leaseDir); } catch { return claims; }
  for (const name of names) {
    const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.lock$/i.exec(name);
    if (!m?.[1]) continue;
    for (const pid of proc.lockHolders(path.join(leaseDir, name))) {
      const p = table.byPid.get(pid);
      if (p && isOmpProcess(p)) claims.set(pid, [...(claims.get(pid) ?? []), m[1].toLowerCase()]);
    }
  }
  return claims;
}
