/**
 * The pi source. pi keeps no registry, lock or exit record, and
 * rewrites its argv to `pi`, so a session is live only when a verified pi process claims it:
 * exactly (the status extension's registry file, a visible `--session` argument) or, failing
 * that, as the newest session of its cwd written since that process started.
 */
import { piResumeArgv } from '../commands.ts';
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
import { createFamilySource } from './family-source.ts';
import type { LiveEvidence } from './family-source.ts';
import { argValues, isOmpProcess, isPiProcess } from './harness-process.ts';
import { readStatusRegistry } from './status-registry.ts';

export interface PiSourceOptions {
  /** pi's agent directory (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`; resolved by the adapter). */
  home: string;
  /**
   * Where the status extension writes `<pid>.json` (its `$PI_STATUS_DIR`). Default:
   * `$MUSTER_PI_STATUS_DIR`, else none (liveness then comes from the process table alone).
   */
  statusDir?: string | null;
  /** Default: the real process table (createProc()). */
  proc?: ProcPort;
  /** Default: an in-memory index (the daemon passes the store's). */
  index?: TranscriptIndex;
  /** Default: createGitReader({ ttlMs: 2000 }). */
  git?: GitReader;
  /** ms since epoch. Default: Date.now. */
  clock?: () => number;
  /** A working session with no new record for this long is `stuck`. Default: 15 minutes. */
  stuckAfterMs?: number;
  /** Used only when the records carry no cost. Default: priceTokens from ../pricing. */
  price?: (model: string | null, tokens: TokenCounts) => number | null;
  /** Reads a first start's unread session files in worker threads. Default: none. */
  cold?: ColdIndexing;
}

export function createPiSource(options: PiSourceOptions): SessionSource {
  const home = options.home;
  const statusDir = options.statusDir === undefined ? process.env['MUSTER_PI_STATUS_DIR'] || null : options.statusDir;
  return createFamilySource({
    cold: options.cold,
    harness: 'pi',
    home,
    sessionsDir: path.join(home, 'sessions'),
    watchDirs: [path.join(home, 'sessions'), ...(statusDir ? [statusDir] : [])],
    proc: options.proc ?? createProc(),
    index: options.index ?? createMemoryTranscriptIndex(),
    git: options.git ?? createGitReader({ ttlMs: 2000 }),
    clock: options.clock ?? Date.now,
    stuckAfterMs: options.stuckAfterMs ?? 15 * 60_000,
    price: options.price ?? priceTokens,
    isHarnessProcess: isPiProcess,
    collectLive: (table) => collectPiLive(table, statusDir),
    resumeArgv: piResumeArgv,
    // pi writes nothing on exit, so no signal loses a record; SIGTERM is the ordinary polite stop.
    endSignal: 'SIGTERM',
  });
}

/** Every pi process, with what it says about its own session. */
export function collectPiLive(table: ProcessTable, statusDir: string | null): LiveEvidence {
  const registry = readStatusRegistry(statusDir, table, isPiProcess, isOmpProcess);
  const processes = [];
  for (const p of table.byPid.values()) {
    if (!isPiProcess(p)) continue;
    const reg = registry.entries.get(p.pid);
    const named = argValues(p.argv, ['--session']);
    processes.push({
      pid: p.pid,
      startedAtMs: p.startedAtMs,
      cwd: p.cwd,
      claimIds: [...named.filter((v) => !v.includes('/')), ...(reg?.sessionId ? [reg.sessionId] : [])],
      claimFiles: [...named.filter((v) => v.includes('/')).map((v) => path.resolve(p.cwd ?? '/', v)), ...(reg?.sessionFile ? [reg.sessionFile] : [])],
      exact: reg ? { state: reg.state, since: reg.updatedAt } : null,
    });
  }
  return { processes, stale: registry.stale, notRegular: registry.notRegular };
}
