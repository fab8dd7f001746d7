/**
 * The Claude Code source (`createClaudeSource`): live sessions from the registry
 * (`sessions/<pid>.json`, verified against the process table), dormant ones and all details from
 * the transcripts (`projects/<slug>/<id>.jsonl`, read incrementally).
 */
import { claudeResumeArgv } from '../commands.ts';
import path from 'node:path';
import type { EndOutcome, SessionSource, SourceDiagnostics, TranscriptIndex } from '../../../discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { isSessionIdFor } from '../../registry.ts';
import type { Session } from '../../../core/session.ts';
import type { ProcPort } from '../../../discovery/proc/types.ts';
import { createProc } from '../../../discovery/proc/index.ts';
import { createGitReader } from '../../../discovery/git/index.ts';
import type { GitInfo } from '../../../discovery/git/index.ts';
import { MusterError } from '../../../errors/index.ts';
import { buildSession, mainEntry } from './build-session.ts';
import { scanRegistry, staleReason } from './live.ts';
import type { RegistryReadCache } from './live.ts';
import type { RegistryEntry } from './registry.ts';
import { listedTranscripts, pageClaudeTranscript, readTranscript, scanTranscripts } from './transcript-scan.ts';
import { startColdRun } from '../../../discovery/index-pool/index.ts';
import type { ColdIndexing, ColdRun } from '../../../discovery/index-pool/index.ts';
import { isTranscriptSummary } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import { createLedgerCache } from './fork-ledger.ts';
import { createSessionMemo } from './session-memo.ts';
import { resolveForks } from './forks.ts';
import type { ForkCandidate, ForkShare } from './forks.ts';
import { transcriptFilesIn, transcriptFilesOf } from './transcript-files.ts';
import { folderCwds } from './folder-cwd.ts';
import type { ScannedTranscript, TranscriptScanCounters } from './transcript-scan.ts';
import { watchClaude } from './watch.ts';
import { findTranscriptFile, readClaudeTail } from './tail.ts';

export interface ClaudeSourceOptions {
  /** Claude's config dir (`$CLAUDE_CONFIG_DIR`, else `~/.claude`; resolved by the adapter). */
  home: string;
  /** Process table. Default: the real one (createProc()). */
  proc?: ProcPort;
  /** Where transcript offsets and summaries persist. Default: in memory. */
  index?: TranscriptIndex;
  /** Repository root and branch of a cwd. Default: createGitReader() (2 s cache). */
  git?: { read(cwd: string): GitInfo };
  /** Wait before re-reading a torn registry file, in ms. Default: 30. */
  tornRetryMs?: number;
  /** Watch debounce in ms. Default: 50. */
  debounceMs?: number;
  /** Transcript lines longer than this are skipped unparsed. Default: 8 MiB. */
  maxLineBytes?: number;
  /** Hand the index each transcript's messages for search. Default: true (false: the discovery-only baseline of bench/search.ts). */
  search?: boolean;
  /** Reads a first start's unread transcripts in worker threads (coldIndex). Default: none. */
  cold?: ColdIndexing;
}

const emptyCounters = (): TranscriptScanCounters => ({ filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] });

/**
 * The same transcripts in the same order, each unchanged: the index hands out the summary it holds
 * until its file changes (transcript-scan.ts), so an unchanged transcript has the same summary object.
 */
function sameTranscripts(a: readonly ScannedTranscript[], b: readonly ScannedTranscript[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.summary !== y.summary || x.path !== y.path || x.mtimeMs !== y.mtimeMs || x.id !== y.id) return false;
  }
  return true;
}

/** Most recent error strings kept for diagnostics. */
const MAX_ERRORS = 50;

export function createClaudeSource(options: ClaudeSourceOptions): SessionSource {
  const home = options.home;
  const sessionsDir = path.join(home, 'sessions');
  const projectsDir = path.join(home, 'projects');
  const proc = options.proc ?? createProc();
  const index = options.index ?? createMemoryTranscriptIndex();
  const git = options.git ?? createGitReader();
  const ledgers = createLedgerCache({ maxLineBytes: options.maxLineBytes });
  let cold: ColdRun | null = null;
  const counters: TranscriptScanCounters & { stale: number } = {
    filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [], stale: 0,
  };
  const isValidId = (id: string): boolean => typeof id === 'string' && isSessionIdFor('claude', id);
  const keepErrors = (more: string[]): void => {
    // The same broken file fails on every scan; keep one line per distinct problem.
    for (const e of more) if (!counters.errors.includes(e)) counters.errors.push(e);
    if (counters.errors.length > MAX_ERRORS) counters.errors.splice(0, counters.errors.length - MAX_ERRORS);
  };

  const absorb = (local: TranscriptScanCounters): void => {
    counters.filesScanned += local.filesScanned;
    counters.filesSkipped += local.filesSkipped;
    counters.linesParsed += local.linesParsed;
    counters.linesSkipped += local.linesSkipped;
    counters.notRegular += local.notRegular;
    keepErrors(local.errors);
  };

  /** Sessions from earlier listings: one whose inputs are unchanged is not built again (session-memo.ts). */
  const memo = createSessionMemo(buildSession);

  /** The last listing's transcripts and what was derived from them alone. */
  let lastDerived: { transcripts: ScannedTranscript[]; forks: Map<string, ForkShare>; cwds: Map<string, string> } | null = null;

  /** Registry entries from earlier scans: an unchanged file is not read again (live.ts). */
  const registryCache: RegistryReadCache = new Map();

  /** Live registry entries grouped by session id; updates the stale gauge. */
  async function liveBySession(): Promise<Map<string, RegistryEntry[]>> {
    const r = await scanRegistry({ sessionsDir, proc, tornRetryMs: options.tornRetryMs, cache: registryCache });
    counters.stale = r.stale.length;
    counters.filesSkipped += r.skipped;
    counters.notRegular += r.notRegular;
    keepErrors(r.errors);
    const map = new Map<string, RegistryEntry[]>();
    for (const e of r.live) map.set(e.sessionId, [...(map.get(e.sessionId) ?? []), e]);
    return map;
  }

  const gitOf = (cwd: string): GitInfo => {
    try {
      return git.read(cwd);
    } catch {
      return { repoRoot: null, branch: null }; // a cwd that vanished or cannot be read
    }
  };

  function toSession(id: string, t: ScannedTranscript | undefined, live: RegistryEntry[], cwds: Map<string, string>, fork?: ForkShare): Session {
    const folderCwd = t ? (cwds.get(path.dirname(t.path)) ?? null) : null;
    return memo.build({ id, summary: t?.summary ?? null, transcriptMtimeMs: t?.mtimeMs ?? null, live, git: gitOf, folderCwd, fork });
  }

  /**
   * One session's fork share, compared with the transcripts the index knows (as last read) that
   * could share its history: the same first message, or a copy naming one of the two.
   */
  function forkOf(t: ScannedTranscript): ForkShare | undefined {
    const { rootKey, copiedFrom } = t.summary;
    if (rootKey === null && copiedFrom === null) return undefined;
    const byId = new Map<string, ForkCandidate & { mtimeMs: number }>([[t.id, { ...t }]]);
    const prefix = projectsDir + path.sep;
    for (const e of index.list('claude')) {
      if (!e.path.startsWith(prefix) || !isTranscriptSummary(e.summary)) continue; // another Claude home sharing the store
      const id = path.basename(e.path, '.jsonl').toLowerCase();
      const sum = e.summary as TranscriptSummary;
      const related = (rootKey !== null && sum.rootKey === rootKey) || id === copiedFrom || sum.copiedFrom === t.id;
      const prev = byId.get(id);
      if (!related || id === t.id || (prev && prev.mtimeMs >= e.mtimeMs)) continue;
      byId.set(id, { id, path: e.path, summary: sum, mtimeMs: e.mtimeMs });
    }
    return byId.size > 1 || copiedFrom !== null ? resolveForks([...byId.values()], ledgers, t.id).get(t.id) : undefined;
  }

  /** The cwd the other transcripts of `t`'s project folder know, when `t` records none. */
  function siblingCwds(t: ScannedTranscript | undefined): Map<string, string> {
    if (!t || t.summary.cwd) return new Map();
    const local = emptyCounters();
    const siblings = transcriptFilesIn(path.dirname(t.path), home, local)
      .filter((f) => f.id !== t.id)
      .map((f) => readTranscript(f.file, f.id, { index, maxLineBytes: options.maxLineBytes, search: options.search }, local))
      .filter((x): x is ScannedTranscript => x !== undefined);
    absorb(local);
    return folderCwds(siblings);
  }

  /** The transcript of one session (a session is in one project dir; the newest wins if not). */
  function findTranscript(id: string): ScannedTranscript | undefined {
    const local = emptyCounters();
    let best: ScannedTranscript | undefined;
    for (const file of transcriptFilesOf(projectsDir, home, id, local)) {
      const t = readTranscript(file, id, { index, maxLineBytes: options.maxLineBytes, search: options.search }, local);
      if (t && (!best || t.mtimeMs > best.mtimeMs)) best = t;
    }
    absorb(local);
    return best;
  }

  return {
    harness: 'claude',

    async list() {
      const live = await liveBySession();
      const local = emptyCounters();
      const transcripts = scanTranscripts({ projectsDir, home, index, maxLineBytes: options.maxLineBytes, search: options.search, pending: cold?.pending }, local);
      absorb(local);
      const byId = new Map<string, ScannedTranscript>();
      for (const t of transcripts) {
        const prev = byId.get(t.id);
        if (!prev || t.mtimeMs > prev.mtimeMs) byId.set(t.id, t);
      }
      const ids = new Set([...byId.keys(), ...live.keys()]);
      // A safety rescan of a long history mostly finds every transcript as it was: the fork shares and
      // the folders' cwds, derived from the transcripts alone, are those of the last listing.
      let derived = lastDerived && sameTranscripts(lastDerived.transcripts, transcripts) ? lastDerived : null;
      if (!derived) {
        const missesBefore = ledgers.misses();
        const forks = resolveForks([...byId.values()], ledgers);
        ledgers.sweep();
        derived = { transcripts, forks, cwds: folderCwds(transcripts) };
        // A transcript whose fork ledger could not be read is compared again at the next listing.
        lastDerived = ledgers.misses() === missesBefore ? derived : null;
      }
      const { forks, cwds } = derived;
      const out = [...ids].map((id) => toSession(id, byId.get(id), live.get(id) ?? [], cwds, forks.get(id)));
      memo.sweep();
      return out;
    },

    async get(id) {
      if (!isValidId(id)) return undefined;
      const key = id.toLowerCase();
      const live = (await liveBySession()).get(key) ?? [];
      const t = findTranscript(key);
      if (!t && live.length === 0) return undefined;
      return toSession(key, t, live, siblingCwds(t), t ? forkOf(t) : undefined);
    },

    watch(onChange) {
      return watchClaude({ home, debounceMs: options.debounceMs }, onChange);
    },

    async end(id, endOptions = {}): Promise<EndOutcome> {
      if (!isValidId(id)) throw new MusterError('invalid_id', `not a Claude session id: ${JSON.stringify(id)}`);
      const all = (await liveBySession()).get(id.toLowerCase()) ?? [];
      const entries = endOptions.pid === undefined ? all : all.filter((e) => e.pid === endOptions.pid);
      if (entries.length === 0) {
        return { outcome: 'not_running', reason: endOptions.pid === undefined ? 'no live Claude process has this session' : `process ${endOptions.pid} no longer has this session open` };
      }
      // A session resumed twice is open in two processes; ending it ends both. Each pid is
      // re-verified right before its signal so a pid reused since the scan is never signalled.
      const main = mainEntry(entries);
      const ordered = [main, ...entries.filter((e) => e !== main)].filter((e): e is RegistryEntry => e !== undefined);
      const signalled: number[] = [];
      for (const e of ordered) {
        if (staleReason(e, proc) === null && proc.signal(e.pid, 'SIGTERM')) signalled.push(e.pid);
      }
      const first = signalled[0];
      if (first === undefined) return { outcome: 'not_running', reason: 'the process exited or is no longer Claude Code' };
      return { outcome: 'ended', signal: 'SIGTERM', pid: first };
    },

    resumeArgv: claudeResumeArgv,

    isValidId,

    async tail(id, limit) {
      if (!isValidId(id)) throw new MusterError('invalid_id', `not a Claude session id: ${JSON.stringify(id)}`);
      return readClaudeTail(projectsDir, id.toLowerCase(), limit, home);
    },

    async messages(id, from, limit) {
      if (!isValidId(id)) throw new MusterError('invalid_id', `not a Claude session id: ${JSON.stringify(id)}`);
      const file = findTranscriptFile(projectsDir, id.toLowerCase(), home);
      if (!file) return null;
      return pageClaudeTranscript(file, from, limit, options.maxLineBytes);
    },

    coldIndex(onProgress) {
      if (!options.cold || cold) return null;
      cold = startColdRun({
        harness: 'claude', kind: 'claude', index, cold: options.cold, messages: options.search !== false, files: listedTranscripts(projectsDir, home), isSummary: isTranscriptSummary, onProgress,
        onResult: (r) => {
          if (r.ok) absorb({ ...emptyCounters(), filesScanned: 1, linesParsed: r.linesParsed, linesSkipped: r.linesSkipped });
          else absorb({ ...emptyCounters(), filesScanned: 1, filesSkipped: 1, notRegular: r.code === 'ENOTREG' ? 1 : 0, errors: [r.code === 'ENOTREG' ? r.message : `${r.path}: ${r.code}`] });
        },
      });
      const run = cold;
      return run ? run.done.finally(() => { if (cold === run) cold = null; }) : null;
    },

    diagnostics(): SourceDiagnostics {
      return {
        harness: 'claude',
        filesScanned: counters.filesScanned,
        filesSkipped: counters.filesSkipped,
        linesParsed: counters.linesParsed,
        linesSkipped: counters.linesSkipped,
        staleRegistryFiles: counters.stale,
        notRegularFiles: counters.notRegular,
        errors: [...counters.errors],
      };
    },
  };
}
