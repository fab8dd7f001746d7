/**
 * The Codex session source. Dormant sessions come from rollouts (read incrementally) and Codex's thread
 * index; live ones only from held thread-writer locks, assigned to the process each is live in
 * (assign.ts); daemon-held threads get their exact status from the daemon's control socket, and take
 * prompts through it (prompt.ts). Muster never writes into CODEX_HOME.
 */
import { codexResumeArgv } from '../commands.ts';
import { basename, join } from 'node:path';
import type { Disposer, EndOutcome, PromptOutcome, SessionSource, SourceChange, SourceDiagnostics, TranscriptIndex } from '../../../discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { createGitReader } from '../../../discovery/git/index.ts';
import type { GitReader } from '../../../discovery/git/index.ts';
import { isUuid } from '../../../core/ids.ts';
import { createProc } from '../../../discovery/proc/index.ts';
import type { ProcPort } from '../../../discovery/proc/types.ts';
import type { Session } from '../../../core/session.ts';
import { parseThreadRead, withAppServer } from './app-server-client.ts';
import type { AppServerClient, DaemonThreadStatus } from './app-server-client.ts';
import { assignCodexThreads } from './assign.ts';
import { classifyCodexProcess } from './argv.ts';
import type { AssignProcess, AssignThread, Assignment } from './assign.ts';
import { buildSession } from './build-session.ts';
import type { EndPlan } from './build-session.ts';
import { endThread } from './end.ts';
import { execPromptRecorded } from './exec-ready.ts';
import { promptDaemonThread } from './prompt.ts';
import { countSkip, listedRollouts, pageRollout, readRollout, pushError } from './rollout-file.ts';
import { isRolloutSummary, threadIdFromRolloutName } from './rollout.ts';
import { startColdRun } from '../../../discovery/index-pool/index.ts';
import type { ColdIndexing, ColdRun } from '../../../discovery/index-pool/index.ts';
import type { ReadCounters } from './rollout-file.ts';
import type { RolloutSummary } from './rollout.ts';
import { findRollouts } from './rollout-scan.ts';
import { createThreadStore } from './thread-store.ts';
import type { CodexGoal } from './thread-store.ts';
import { scanThreadLocks } from './thread-locks.ts';
import { watchCodexHome } from './watch.ts';

export interface CodexSourceOptions {
  /** CODEX_HOME (`$CODEX_HOME`, else `~/.codex`; resolved by the adapter). */
  home: string;
  /** Process table and lock port. Default: createProc(). */
  proc?: ProcPort;
  /** Incremental transcript index. Default: an in-memory index. */
  index?: TranscriptIndex;
  /** Default: createGitReader({ ttlMs: 2000 }). */
  git?: GitReader;
  /** Default: Date.now. */
  clock?: () => number;
  /** The daemon's control socket. Default: <home>/app-server-control/app-server-control.sock. */
  controlSocket?: string;
  /** Budget per daemon call, ms. Default: 1000. */
  daemonTimeoutMs?: number;
  /** Budget for a prompt's daemon calls (`thread/read`, `turn/start`), ms. Default: 5000. */
  promptTimeoutMs?: number;
  /** Opens a control connection; tests may substitute. Default: withAppServer. */
  withDaemon?: <T>(socketPath: string, fn: (c: AppServerClient) => Promise<T>, timeoutMs: number) => Promise<T>;
  /** Reads a first start's unread rollouts in worker threads (coldIndex). Default: none. */
  cold?: ColdIndexing;
}

export interface CodexSource extends SessionSource {
  /** The native Codex goal of a thread (goals_1.sqlite), when one is set. */
  goal(id: string): CodexGoal | null;
}

interface Resolved {
  sessions: Map<string, Session>;
  plans: Map<string, { plan: EndPlan; summary: RolloutSummary | null; daemon: DaemonThreadStatus | null; assignment: Assignment | null }>;
}

export function createCodexSource(options: CodexSourceOptions): CodexSource {
  const home = options.home;
  const proc = options.proc ?? createProc();
  const index = options.index ?? createMemoryTranscriptIndex();
  const git = options.git ?? createGitReader({ ttlMs: 2000 });
  const controlSocket = options.controlSocket ?? join(home, 'app-server-control', 'app-server-control.sock');
  const timeoutMs = options.daemonTimeoutMs ?? 1000;
  const withDaemon = options.withDaemon ?? ((p, fn, t) => withAppServer(p, fn, { timeoutMs: t }));
  const counters: ReadCounters = { filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] };
  let staleLocks = 0;
  let cold: ColdRun | null = null;
  const store = createThreadStore(home, (m) => pushError(counters, m), (e) => countSkip(counters, e.path, e));

  /** thread/read for each daemon-held thread over one connection; an unreachable daemon yields {}. */
  const readDaemon = async (ids: string[]): Promise<Map<string, DaemonThreadStatus>> => {
    const out = new Map<string, DaemonThreadStatus>();
    if (ids.length === 0) return out;
    try {
      await withDaemon(controlSocket, async (c) => {
        for (const id of ids) {
          const st = parseThreadRead(await c.request('thread/read', { threadId: id }));
          if (st) out.set(id, st);
        }
      }, timeoutMs);
    } catch (e) {
      pushError(counters, `daemon ${controlSocket}: ${(e as Error).message}`);
    }
    return out;
  };

  const processes = (): AssignProcess[] => {
    const table = proc.snapshot();
    return [...table.byPid.values()].map((p) => ({ pid: p.pid, ppid: p.ppid, argv: p.argv, exe: p.exe, cwd: p.cwd, startedAtMs: p.startedAtMs }));
  };

  const resolve = async (): Promise<Resolved> => {
    const summaries = new Map<string, RolloutSummary>();
    const seen = new Set<string>();
    for (const f of findRollouts(home, (p, e) => countSkip(counters, p, e))) {
      seen.add(f.path);
      if (cold?.pending.has(f.path)) continue; // the cold index reads it
      const s = readRollout(f.path, index, counters);
      if (!s) continue;
      if (s.records === 0) { counters.filesSkipped++; continue; } // named like a rollout, holds none of its records
      const prev = summaries.get(f.threadId);
      // The same thread in sessions/ and archived_sessions/: the newer copy wins.
      if (!prev || (s.lastActivityAt ?? '') > (prev.lastActivityAt ?? '')) summaries.set(f.threadId, s);
    }
    // Forget rollouts that are gone (their searchable messages leave with them).
    for (const e of index.list('codex')) if (threadIdFromRolloutName(basename(e.path)) !== null && !seen.has(e.path)) index.remove(e.path);
    const rows = store.threads();
    const names = store.names();
    const locks = scanThreadLocks(home, proc, (m) => pushError(counters, m), (e) => countSkip(counters, e.path, e));
    staleLocks = locks.stale.length;
    const procs = locks.held.length > 0 ? processes() : [];
    // Ask the daemon first: it knows the cwd of a thread whose rollout does not exist yet, which the
    // working-directory claim of a TUI that does not name its thread needs (assign.ts).
    const daemonPids = new Set(procs.filter((p) => classifyCodexProcess(p.argv, p.exe).kind === 'daemon').map((p) => p.pid));
    const daemon = await readDaemon(locks.held.filter((l) => l.holderPids.some((p) => daemonPids.has(p))).map((l) => l.threadId));
    const threads: AssignThread[] = locks.held.map((l) => {
      const s = summaries.get(l.threadId);
      const row = rows.get(l.threadId);
      return {
        id: l.threadId, holderPids: l.holderPids, cwd: s?.cwd ?? row?.cwd ?? daemon.get(l.threadId)?.cwd ?? null, hasRollout: s !== undefined,
        lastActivityMs: s?.lastActivityAt ? Date.parse(s.lastActivityAt) : 0, loadedAtMs: l.loadedAtMs,
        name: names.get(l.threadId) ?? row?.name ?? null,
      };
    });
    const assignments = threads.length > 0 ? assignCodexThreads(threads, procs) : new Map<string, Assignment>();

    const ids = new Set<string>(summaries.keys());
    for (const a of assignments.values()) if (a.kind !== 'lingering') ids.add(a.threadId);
    const out: Resolved = { sessions: new Map(), plans: new Map() };
    for (const id of [...ids].sort()) {
      const summary = summaries.get(id) ?? null;
      const assignment = assignments.get(id) ?? null;
      const d = daemon.get(id) ?? null;
      const { session, plan } = buildSession({ id, summary, row: rows.get(id) ?? null, name: names.get(id) ?? null, assignment, daemon: d }, git);
      // A lingering daemon thread with no rollout (the reviewer thread) has nothing to show or resume.
      if (!summary && !session.live) continue;
      out.sessions.set(id, session);
      out.plans.set(id, { plan, summary, daemon: d, assignment });
    }
    return out;
  };

  const isValidId = (id: string): boolean => typeof id === 'string' && isUuid(id);
  /** The thread's rollout: the newest copy when it is in both sessions/ and archived_sessions/. */
  const liveRollout = (id: string): string | null => {
    const files = findRollouts(home, () => {}).filter((f) => f.threadId === id);
    return (files.find((f) => !f.archived) ?? files[0])?.path ?? null;
  };

  return {
    harness: 'codex',
    async list() {
      return [...(await resolve()).sessions.values()];
    },
    async get(id) {
      if (!isValidId(id)) return undefined;
      return (await resolve()).sessions.get(id.toLowerCase());
    },
    watch(onChange: (change: SourceChange) => void): Disposer {
      return watchCodexHome(home, onChange);
    },
    async end(id): Promise<EndOutcome> {
      if (!isValidId(id)) return { outcome: 'not_running', reason: 'not a Codex thread id' };
      const r = await resolve();
      const p = r.plans.get(id.toLowerCase());
      const s = r.sessions.get(id.toLowerCase());
      if (!p || !s || !s.live) return { outcome: 'not_running', reason: 'the thread is not live' };
      const key = id.toLowerCase();
      let rollout: string | null = null; // found once it exists: an exec that has just started may not have written it
      const promptRecorded = (): boolean => (rollout ??= liveRollout(key)) !== null && execPromptRecorded(rollout);
      return endThread({ id: key, home, proc, plan: p.plan, summary: p.summary, daemon: p.daemon, controlSocket, timeoutMs, withDaemon, promptRecorded });
    },
    async prompt(id, text): Promise<PromptOutcome> {
      if (!isValidId(id)) return { ok: false, reason: 'refused', message: 'not a Codex thread id' };
      const key = id.toLowerCase();
      if ((await resolve()).sessions.get(key)?.promptable !== true) return { ok: false, reason: 'no_channel', message: 'no running Codex app-server daemon holds this thread' };
      return promptDaemonThread({ id: key, text, controlSocket, timeoutMs: options.promptTimeoutMs ?? 5000, withDaemon });
    },
    resumeArgv: codexResumeArgv,
    isValidId,
    async messages(id, from, limit) {
      if (!isValidId(id)) return null;
      const file = liveRollout(id.toLowerCase());
      return file !== null ? pageRollout(file, from, limit) : null;
    },
    coldIndex(onProgress) {
      if (!options.cold || cold) return null;
      cold = startColdRun({
        harness: 'codex', kind: 'codex', index, cold: options.cold, messages: true, files: listedRollouts(findRollouts(home, () => {})), isSummary: isRolloutSummary, onProgress,
        onResult: (r) => {
          counters.filesScanned++;
          if (r.ok) {
            counters.linesParsed += r.linesParsed;
            counters.linesSkipped += r.linesSkipped;
          } else {
            counters.filesSkipped++;
            if (r.code === 'ENOTREG') counters.notRegular++;
            pushError(counters, r.code === 'ENOTREG' ? r.message : `read ${r.path}: ${r.message}`);
          }
        },
      });
      const run = cold;
      return run ? run.done.finally(() => { if (cold === run) cold = null; }) : null;
    },
    diagnostics(): SourceDiagnostics {
      return {
        harness: 'codex', filesScanned: counters.filesScanned, filesSkipped: counters.filesSkipped, linesParsed: counters.linesParsed,
        linesSkipped: counters.linesSkipped, staleRegistryFiles: staleLocks, notRegularFiles: counters.notRegular, errors: [...counters.errors],
      };
    },
    goal(id) {
      if (!isValidId(id)) return null;
      return store.goals().get(id.toLowerCase()) ?? null;
    },
  };
}
