/**
 * The GitHub Copilot CLI source. Sessions are the folders under `<COPILOT_HOME>/session-state/`;
 * their events.jsonl is read incrementally through the transcript index. A session is live only
 * while a verified native copilot process holds it (live.ts); its status comes from
 * open-sessions-state.json and the events (status.ts). Muster never writes into COPILOT_HOME.
 */
import { dirname } from 'node:path';
import type { Disposer, EndOutcome, SessionSource, SourceChange, SourceDiagnostics, TranscriptIndex } from '../../../discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { createGitReader, type GitReader } from '../../../discovery/git/index.ts';
import { priceByModel } from '../../../discovery/pricing/index.ts';
import { createProc } from '../../../discovery/proc/index.ts';
import type { ProcPort, ProcessTable } from '../../../discovery/proc/types.ts';
import { isUuid } from '../../../core/ids.ts';
import type { Session } from '../../../core/session.ts';
import { copilotResumeArgv } from '../commands.ts';
import { forgetGone, pageEvents, readEvents, type ReadCounters } from './events-scan.ts';
import type { EventsSummary } from './events.ts';
import { scanLive, stillOwns, type LiveOwner } from './live.ts';
import { readOpenState, type OpenEntry } from './open-state.ts';
import { listSessionDirs, sessionStateDir, type SessionDir, type WorkspaceCache } from './session-dirs.ts';
import { deriveStatus } from './status.ts';
import { readCopilotTail } from './tail.ts';
import { watchCopilotHome } from './watch.ts';

export interface CopilotSourceOptions {
  /** COPILOT_HOME (`$COPILOT_HOME`, else `~/.copilot`; resolved by the adapter). */
  home: string;
  /** Process table and lock port. Default: createProc(). */
  proc?: ProcPort;
  /** Incremental transcript index. Default: an in-memory index. */
  index?: TranscriptIndex;
  /** Default: createGitReader({ ttlMs: 2000 }). */
  git?: GitReader;
  /** ms since epoch. Default: Date.now. */
  clock?: () => number;
  /** A working session with no new event for this long is `stuck`. Default: 15 minutes. */
  stuckAfterMs?: number;
}

interface Snapshot {
  sessions: Map<string, Session>;
  dirs: Map<string, SessionDir>;
  table: ProcessTable;
}

export function createCopilotSource(options: CopilotSourceOptions): SessionSource {
  const home = options.home;
  const proc = options.proc ?? createProc();
  const index = options.index ?? createMemoryTranscriptIndex();
  const git = options.git ?? createGitReader({ ttlMs: 2000 });
  const clock = options.clock ?? Date.now;
  const stuckAfterMs = options.stuckAfterMs ?? 15 * 60_000;
  const workspaces: WorkspaceCache = new Map();
  let diag: SourceDiagnostics = { harness: 'copilot', filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, staleRegistryFiles: 0, notRegularFiles: 0, errors: [] };

  const snapshot = (only?: string): Snapshot => {
    const listing = listSessionDirs(home, only, workspaces);
    const c: ReadCounters = { linesParsed: 0, linesSkipped: 0, filesSkipped: listing.filesSkipped, notRegular: listing.notRegular, errors: [...listing.errors] };
    const live = scanLive(listing.dirs, proc);
    const open = readOpenState(home, (m, notRegular) => {
      c.errors.push(m);
      c.filesSkipped++;
      if (notRegular) c.notRegular++;
    });
    const seen = new Set<string>();
    const sessions = new Map<string, Session>();
    const dirs = new Map<string, SessionDir>();
    for (const d of listing.dirs) {
      if (d.events) seen.add(d.events.path);
      const summary = d.events ? readEvents(d.events, index, c) : null;
      const owner = live.owners.get(d.id);
      // A folder whose events hold no Copilot record has nothing to show, unless a process has it open
      // (a new session writes events.jsonl only at its first prompt).
      if (!owner && (!summary || summary.records === 0)) continue;
      sessions.set(d.id, toSession(d, summary, owner, open.get(d.id) ?? null, live.table));
      dirs.set(d.id, d);
    }
    if (only !== undefined) return { sessions, dirs, table: live.table };
    forgetGone(index, sessionStateDir(home), seen);
    const listed = new Set(listing.dirs.map((d) => d.dir));
    for (const file of workspaces.keys()) if (!listed.has(dirname(file))) workspaces.delete(file);
    diag = {
      harness: 'copilot', filesScanned: listing.filesScanned, filesSkipped: c.filesSkipped, linesParsed: c.linesParsed, linesSkipped: c.linesSkipped,
      staleRegistryFiles: live.stale, notRegularFiles: c.notRegular, errors: c.errors.slice(0, 20),
    };
    return { sessions, dirs, table: live.table };
  };

  const toSession = (d: SessionDir, s: EventsSummary | null, owner: LiveOwner | undefined, open: OpenEntry | null, table: ProcessTable): Session => {
    const live = owner !== undefined;
    const starts = owner?.pids.map((p) => table.byPid.get(p)?.startedAtMs ?? 0) ?? [];
    const processStartMs = starts.length > 0 ? Math.max(...starts) : null;
    const st = deriveStatus({ live, summary: s, open, processStartMs, now: clock(), stuckAfterMs });
    const cwd = d.workspace?.cwd ?? s?.cwd ?? null;
    const g = cwd ? safeGit(git, cwd) : { repoRoot: null, branch: null };
    const tokens = s ? { ...s.tokens } : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    return {
      harness: 'copilot', id: d.id, title: d.workspace?.name ?? s?.firstPrompt ?? '', cwd, repoRoot: g.repoRoot, branch: g.branch,
      live, pid: owner?.pids.at(-1) ?? null, pids: owner ? [...owner.pids] : [],
      status: st.status, waitingFor: st.waitingFor, statusSince: st.statusSince,
      startedAt: s?.startedAt ?? d.workspace?.createdAt ?? null,
      lastActivityAt: s?.lastActivityAt ?? d.workspace?.updatedAt ?? null,
      model: s?.model ?? null, tokens,
      // Unknown models (BYOK names, Copilot's own aliases) are priced as unknown, never as $0.
      costUsd: s ? priceByModel(s.byModel, s.model) : null,
      prLinks: [], pane: null, canEnd: live, resumeArgv: copilotResumeArgv(d.id), forkedFrom: s?.forkedFrom ?? null,
    };
  };

  const isValidId = (id: string): boolean => typeof id === 'string' && isUuid(id);

  return {
    harness: 'copilot',
    async list() {
      return [...snapshot().sessions.values()];
    },
    async get(id) {
      if (!isValidId(id)) return undefined;
      return snapshot(id.toLowerCase()).sessions.get(id.toLowerCase());
    },
    watch(onChange: (change: SourceChange) => void): Disposer {
      return watchCopilotHome(home, onChange);
    },
    async end(id, opts): Promise<EndOutcome> {
      if (!isValidId(id)) return { outcome: 'not_running', reason: 'not a Copilot session id' };
      const key = id.toLowerCase();
      const snap = snapshot(key);
      const s = snap.sessions.get(key);
      const dir = snap.dirs.get(key);
      if (!s?.live || !dir) return { outcome: 'not_running', reason: 'no live copilot process has this session open' };
      const pids = opts?.pid !== undefined ? s.pids.filter((p) => p === opts.pid) : s.pids;
      let ended: number | null = null;
      for (const pid of pids) {
        // The native CLI, never its node loader (which would die alone and orphan the CLI), and only
        // after reading it afresh: same start time, still the CLI, still holding the session.
        const then = snap.table.byPid.get(pid);
        if (!then || !stillOwns(proc, then, key, dir.dir)) continue;
        if (proc.signal(pid, 'SIGTERM')) ended ??= pid;
      }
      return ended === null ? { outcome: 'not_running', reason: 'the copilot process is gone or no longer has this session open' } : { outcome: 'ended', signal: 'SIGTERM', pid: ended };
    },
    resumeArgv: (id) => (isValidId(id) ? copilotResumeArgv(id.toLowerCase()) : null),
    isValidId,
    diagnostics: () => ({ ...diag, errors: [...diag.errors] }),
    async tail(id, limit) {
      if (!isValidId(id)) return [];
      // Through the listing, so a linked folder or file leading outside the home is never read.
      const events = listSessionDirs(home, id.toLowerCase()).dirs[0]?.events;
      return events ? readCopilotTail(events.path, limit) : [];
    },
    async messages(id, from, limit) {
      if (!isValidId(id)) return null;
      const events = listSessionDirs(home, id.toLowerCase()).dirs[0]?.events;
      return events ? pageEvents(events.path, from, limit) : null;
    },
  };
}

function safeGit(git: GitReader, cwd: string): { repoRoot: string | null; branch: string | null } {
  try {
    return git.read(cwd);
  } catch {
    return { repoRoot: null, branch: null };
  }
}
