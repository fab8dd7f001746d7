/**
 * The engine shared by the pi and omp sources: both write the same session files and both are
 * live only by process evidence. Each harness supplies its paths, how to recognise and claim its
 * processes, its resume argv and its clean end signal; everything else is here.
 */
import type { Disposer, EndOutcome, SessionSource, SourceChange, SourceDiagnostics, TranscriptIndex } from '../../../discovery/contract.ts';
import type { GitReader } from '../../../discovery/git/index.ts';
import type { ProcInfo, ProcPort, ProcessTable } from '../../../discovery/proc/types.ts';
import type { Session, TokenCounts } from '../../../core/session.ts';
import { isUuid } from '../../../core/ids.ts';
import { MusterError } from '../../../errors/index.ts';
import { assignLive } from './live-assign.ts';
import type { LiveOwner, LiveProcess } from './live-assign.ts';
import { watchDirs } from './dir-watch.ts';
import { idFromFileName, listSessionFiles } from './session-files.ts';
import { isPiSummary } from './transcript-fold.ts';
import { startColdRun } from '../../../discovery/index-pool/index.ts';
import type { ColdIndexing, ColdRun } from '../../../discovery/index-pool/index.ts';
import { pageSessionFile, scanTranscripts } from './transcript-scan.ts';
import type { ScanOptions, ScannedTranscript } from './transcript-scan.ts';
import { deriveStatus } from './transcript-status.ts';

export interface LiveEvidence {
  processes: LiveProcess[];
  /** Run/registry files left behind by dead or replaced processes. */
  stale: number;
  /** Run, registry or pointer entries that were not regular files (FIFO, socket, device), never read. */
  notRegular: number;
}

export interface FamilyConfig {
  harness: 'pi' | 'omp';
  /** The harness's home: linked session files are read only when they resolve inside it. */
  home: string;
  sessionsDir: string;
  /** Directories whose changes matter to `watch`. */
  watchDirs: string[];
  proc: ProcPort;
  index: TranscriptIndex;
  git: GitReader;
  clock: () => number;
  /** A working session silent this long is `stuck`. */
  stuckAfterMs: number;
  /** USD for `tokens` on `model`, used only when the records carry no cost. */
  price: (model: string | null, tokens: TokenCounts) => number | null;
  isHarnessProcess: (p: ProcInfo) => boolean;
  collectLive: (table: ProcessTable) => LiveEvidence;
  resumeArgv: (id: string) => string[];
  endSignal: NodeJS.Signals;
  afterRead?: ScanOptions['afterRead'];
  /** Reads a first start's unread session files in worker threads (the fold named `harness`). Default: none. */
  cold?: ColdIndexing;
}

interface Snapshot { sessions: Session[]; table: ProcessTable }

export function createFamilySource(config: FamilyConfig): SessionSource {
  const { harness, proc } = config;
  let diag: SourceDiagnostics = {
    harness, filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, staleRegistryFiles: 0, notRegularFiles: 0, errors: [],
  };

  let cold: ColdRun | null = null;
  let coldCounts = { filesScanned: 0, filesSkipped: 0, notRegular: 0, errors: [] as string[] };

  const snapshot = (): Snapshot => {
    const table = proc.snapshot();
    const scan = scanTranscripts({ harness, sessionsDir: config.sessionsDir, home: config.home, index: config.index, afterRead: config.afterRead, pending: cold?.pending });
    const live = config.collectLive(table);
    const transcripts = newestPerId(scan.transcripts);
    const owners = assignLive(live.processes, transcripts.map((t) => ({ id: t.id, path: t.path, cwd: t.summary.cwd, mtimeMs: t.mtimeMs })));
    const now = config.clock();
    const sessions = transcripts.map((t) => toSession(t, owners.get(t.id), now));
    diag = {
      harness,
      filesScanned: scan.filesScanned,
      filesSkipped: scan.filesSkipped,
      linesParsed: scan.transcripts.reduce((n, t) => n + t.summary.linesParsed, 0),
      linesSkipped: scan.transcripts.reduce((n, t) => n + t.summary.linesSkipped, 0),
      staleRegistryFiles: live.stale,
      notRegularFiles: scan.notRegular + live.notRegular,
      errors: scan.errors.slice(0, 20),
    };
    return { sessions, table };
  };

  const toSession = (t: ScannedTranscript, owner: LiveOwner | undefined, now: number): Session => {
    const s = t.summary;
    const live = owner !== undefined;
    const st = deriveStatus(s, { live, now, stuckAfterMs: config.stuckAfterMs, exact: owner?.exactState ?? null });
    const git = s.cwd ? safeGit(config.git, s.cwd) : { repoRoot: null, branch: null };
    return {
      harness, id: t.id, title: s.title ?? s.firstPrompt ?? '', cwd: s.cwd,
      repoRoot: git.repoRoot, branch: git.branch,
      live, pid: owner?.pids[0] ?? null, pids: owner ? [...owner.pids] : [],
      status: st.status, waitingFor: st.waitingFor, statusSince: st.statusSince,
      startedAt: s.startedAt, lastActivityAt: s.lastActivityAt ?? new Date(t.mtimeMs).toISOString(),
      model: s.model, tokens: { ...s.tokens }, costUsd: s.costUsd ?? config.price(s.model, s.tokens),
      prLinks: [], pane: null,
      canEnd: live && (owner.exact || !owner.ambiguous),
      resumeArgv: config.resumeArgv(t.id),
    };
  };

  const isValidId = (id: string): boolean => typeof id === 'string' && isUuid(id);

  return {
    harness,
    async list() { return snapshot().sessions; },
    async get(id) {
      if (!isValidId(id)) return undefined;
      return snapshot().sessions.find((s) => s.id === id.toLowerCase());
    },
    watch(onChange: (change: SourceChange) => void): Disposer {
      return watchDirs(config.watchDirs, (ids) => onChange({ harness, ids }), { idOf: idInPath });
    },
    async end(id): Promise<EndOutcome> {
      if (!isValidId(id)) throw new MusterError('invalid_id', `not a ${harness} session id: ${JSON.stringify(id)}`);
      const { sessions, table } = snapshot();
      const s = sessions.find((x) => x.id === id.toLowerCase());
      if (!s?.live || s.pid === null) return { outcome: 'not_running', reason: 'no live process has this session open' };
      if (!s.canEnd) return { outcome: 'unsupported', reason: 'the process was matched by working directory among several; end it from its terminal' };
      let ended: number | null = null;
      for (const pid of s.pids) {
        // Re-read right before signalling: the pid must still be the same harness process (same start).
        const now = proc.read(pid);
        const then = table.byPid.get(pid);
        if (!now || !then || now.startTicks !== then.startTicks || !config.isHarnessProcess(now)) continue;
        if (proc.signal(pid, config.endSignal)) ended ??= pid;
      }
      return ended === null
        ? { outcome: 'not_running', reason: 'the process is gone or is no longer this harness' }
        : { outcome: 'ended', signal: config.endSignal, pid: ended };
    },
    resumeArgv: (id) => (isValidId(id) ? config.resumeArgv(id.toLowerCase()) : null),
    isValidId,
    async messages(id, from, limit) {
      if (!isValidId(id)) return null;
      // The scan is incremental (unchanged files are only stat'ed); no process table is read.
      const scan = scanTranscripts({ harness, sessionsDir: config.sessionsDir, home: config.home, index: config.index, afterRead: config.afterRead });
      const t = newestPerId(scan.transcripts).find((x) => x.id === id.toLowerCase());
      return t ? pageSessionFile(t.path, from, limit) : null;
    },
    diagnostics: () => ({
      ...diag,
      filesScanned: diag.filesScanned + coldCounts.filesScanned,
      filesSkipped: diag.filesSkipped + coldCounts.filesSkipped,
      notRegularFiles: diag.notRegularFiles + coldCounts.notRegular,
      errors: [...diag.errors, ...coldCounts.errors],
    }),
    coldIndex(onProgress) {
      if (!config.cold || cold) return null;
      const files = listSessionFiles(config.sessionsDir, config.home).files.sort((a, b) => b.mtimeMs - a.mtimeMs);
      coldCounts = { filesScanned: 0, filesSkipped: 0, notRegular: 0, errors: [] };
      cold = startColdRun({
        harness, kind: harness, index: config.index, cold: config.cold, messages: true, files, isSummary: isPiSummary, onProgress,
        onResult: (r) => {
          // Lines are counted from the summaries at each listing; files read only here are counted here.
          if (r.ok) return;
          coldCounts.filesSkipped++;
          if (r.code === 'ENOTREG') coldCounts.notRegular++;
          if (coldCounts.errors.length < 20) coldCounts.errors.push(`${r.path}: ${r.code}`);
        },
      });
      const run = cold;
      return run ? run.done.finally(() => { if (cold === run) cold = null; }) : null;
    },
  };
}

/** Two files claiming one id (a copied file): the most recently written wins. */
function newestPerId(ts: ScannedTranscript[]): ScannedTranscript[] {
  const best = new Map<string, ScannedTranscript>();
  for (const t of ts) {
    const b = best.get(t.id);
    if (!b || t.mtimeMs > b.mtimeMs) best.set(t.id, t);
  }
  return [...best.values()];
}

function idInPath(rel: string): string | null {
  const base = rel.split(/[/\\]/).pop() ?? '';
  return idFromFileName(base.endsWith('.jsonl') ? base : `${base}.jsonl`);
}

function safeGit(git: GitReader, cwd: string): { repoRoot: string | null; branch: string | null } {
  try { return git.read(cwd); } catch { return { repoRoot: null, branch: null }; }
}
