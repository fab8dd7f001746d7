/**
 * The OpenCode session source: sessions from OpenCode's SQLite store
 * (and the legacy JSON tree), live owners from the process table, exact status from a process's own
 * HTTP server when it has one (`--port`, `serve`), `stuck` for a reply whose process died.
 */
import { readOpenCodeTail } from './tail.ts';
import { pageOpenCodeConversation } from './conversation.ts';
import { openOpenCodeDb } from './db-reader.ts';
import { opencodeResumeArgv } from '../commands.ts';
import path from 'node:path';
import type { EndOutcome, PromptOutcome, SessionSource, SourceDiagnostics, TranscriptIndex } from '../../../discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import type { ColdIndexing } from '../../../discovery/index-pool/index.ts';
import { MusterError } from '../../../errors/index.ts';
import { createGitReader, type GitInfo, type GitReader } from '../../../discovery/git/index.ts';
import { isOpenCodeId } from '../ids.ts';
import { priceTokens } from '../../../discovery/pricing/index.ts';
import { createProc } from '../../../discovery/proc/index.ts';
import type { ProcInfo, ProcPort } from '../../../discovery/proc/types.ts';
import type { Session, TokenCounts } from '../../../core/session.ts';
import { classifyOpenCodeArgv, isOpenCodeProcess, serverUrlOf } from './argv.ts';
import { createOpenCodeHttp, type OpenCodeHttpPort, type ServerView } from './http.ts';
import { assignOpenCodeSessions, type Claim, type OpenCodeProcess } from './liveness.ts';
import { createDormantMemo } from './dormant-memo.ts';
import { deriveOpenCodeStatus } from './status.ts';
import { createStoreScanner, type StoreCounters } from './store-scan.ts';
import { lastActivityMs, type OpenCodeSessionSummary } from './summary.ts';
import { watchTargets } from './watch.ts';

export interface OpenCodeSourceOptions {
  /** OpenCode's data directory (`$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`; resolved by the adapter). */
  home: string;
  /** The SQLite store. Default: `$OPENCODE_DB` when absolute, else `<home>/opencode.db`. */
  dbPath?: string;
  /** Process table. Default: createProc(). */
  proc?: ProcPort;
  /** Incremental index. Default: an in-memory one. */
  index?: TranscriptIndex;
  /** Reads a first start's unread sessions in worker threads (coldIndex). Default: none (read in list()). */
  cold?: ColdIndexing;
  /** Repo root and branch per cwd. Default: createGitReader({ ttlMs: 2000 }). */
  git?: GitReader;
  /** HTTP client for `--port`/`serve` processes. Default: createOpenCodeHttp() (500 ms timeouts). */
  http?: OpenCodeHttpPort;
  /** Cost when the store has none (0): a list price by model. Default: priceTokens from ../pricing. */
  price?: (model: string | null, tokens: TokenCounts) => number | null;
  /** Environment for the defaults above. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Clock, ms. Default: Date.now. */
  now?: () => number;
}

/** How long a running server's last status stands in for a status call it missed. */
const VIEW_GRACE_MS = 10_000;

interface Snapshot {
  sessions: Session[];
  /** The process records the claims were made from (start ticks guard pid reuse in end()). */
  procs: Map<number, ProcInfo>;
  claims: Map<string, Claim>;
  /** The server that can take a prompt for each session (its claimer's, or the `serve` of its directory). */
  promptUrls: Map<string, string>;
  /**
   * Every session's `serve` of its directory, whether or not it answered the listing's short status
   * call: an operator's prompt tries it (a server slow under load is not a server gone).
   */
  serveUrls: Map<string, string>;
}

export function createOpenCodeSource(options: OpenCodeSourceOptions): SessionSource {
  const env = options.env ?? process.env;
  const home = options.home;
  const envDb = env.OPENCODE_DB;
  const dbPath = options.dbPath ?? (envDb && path.isAbsolute(envDb) ? envDb : path.join(home, 'opencode.db'));
  const storageDir = path.join(home, 'storage');
  const proc = options.proc ?? createProc();
  const git = options.git ?? createGitReader({ ttlMs: 2000 });
  const http = options.http ?? createOpenCodeHttp();
  const price = options.price ?? ((model, tokens) => priceTokens(model, tokens));
  const counters: StoreCounters = { filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] };
  const store = createStoreScanner({ dbPath, storageDir, index: options.index ?? createMemoryTranscriptIndex(), counters });

  const clock = options.now ?? Date.now;
  const lastViews = new Map<string, { view: ServerView; atMs: number }>();
  /** Sessions no process claims, from earlier listings (dormant-memo.ts). */
  const dormant = createDormantMemo();

  async function snapshot(): Promise<Snapshot> {
    const summaries = store.scan();
    const table = proc.snapshot();
    const procs = new Map<number, ProcInfo>();
    const ocProcs: OpenCodeProcess[] = [];
    for (const p of table.byPid.values()) {
      if (p.pid === process.pid || !isOpenCodeProcess(p)) continue;
      const cls = classifyOpenCodeArgv(p.argv);
      if (cls.kind === 'other') continue;
      procs.set(p.pid, p);
      ocProcs.push({ pid: p.pid, startedAtMs: p.startedAtMs, cwd: p.cwd, cls, serverUrl: serverUrlOf(cls) });
    }
    const urls = [...new Set(ocProcs.map((p) => p.serverUrl).filter((u): u is string => u !== null))].sort();
    const views = new Map<string, ServerView>();
    const now = clock();
    await Promise.all(urls.map(async (u) => {
      const fresh = await http.view(u);
      if (fresh) {
        lastViews.set(u, { view: fresh, atMs: now });
        views.set(u, fresh);
        return;
      }
      // A server still running that missed one short status call (a loaded machine) keeps its last
      // view for a few seconds, so its sessions do not flap to unpromptable and back.
      const last = lastViews.get(u);
      if (last && now - last.atMs <= VIEW_GRACE_MS) views.set(u, last.view);
    }));
    for (const u of lastViews.keys()) if (!urls.includes(u)) lastViews.delete(u);
    const busy = new Map<string, Set<string>>();
    for (const [u, v] of views) busy.set(u, new Set([...v.status].filter(([, s]) => s.type !== 'idle').map(([id]) => id)));
    const refs = [...summaries.values()].map((s) => ({ id: s.id, directory: s.directory, createdMs: s.createdMs, updatedMs: lastActivityMs(s) }));
    const claims = assignOpenCodeSessions(ocProcs, refs, busy);
    // An `opencode serve` hosts every session of its directory, busy or not: it can take a prompt for one.
    const servers = new Map<string, string>();
    for (const p of ocProcs) if (p.cls.kind === 'serve' && p.serverUrl && p.cwd && views.has(p.serverUrl)) servers.set(p.cwd, p.serverUrl);
    const anyServe = new Map<string, string>();
    for (const p of ocProcs) if (p.cls.kind === 'serve' && p.serverUrl && p.cwd) anyServe.set(p.cwd, p.serverUrl);
    const promptUrls = new Map<string, string>();
    const serveUrls = new Map<string, string>();
    for (const s of summaries.values()) {
      const url = claims.get(s.id)?.serverUrl ?? (s.directory ? servers.get(s.directory) : undefined);
      if (url) promptUrls.set(s.id, url);
      const serve = s.directory ? anyServe.get(s.directory) : undefined;
      if (serve) serveUrls.set(s.id, serve);
    }
    const sessions = [...summaries.values()].map((s) => {
      const claim = claims.get(s.id);
      const promptable = promptUrls.has(s.id);
      if (claim || promptable) return toSession(s, claim, views, procs, promptable, gitOf(s.directory));
      return dormant.session(s, gitOf(s.directory), (g) => toSession(s, undefined, views, procs, false, g));
    });
    dormant.sweep();
    sessions.sort((a, b) => (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? '') || a.id.localeCompare(b.id));
    return { sessions, procs, claims, promptUrls, serveUrls };
  }

  /** What git says of a session's directory (none: a vanished cwd, or no directory). */
  function gitOf(dir: string | null): GitInfo {
    if (!dir) return { repoRoot: null, branch: null };
    try {
      return git.read(dir);
    } catch {
      return { repoRoot: null, branch: null };
    }
  }

  function toSession(s: OpenCodeSessionSummary, claim: Claim | undefined, views: Map<string, ServerView>, procs: Map<number, ProcInfo>, promptable: boolean, gitInfo: GitInfo): Session {
    const view = claim?.serverUrl ? views.get(claim.serverUrl) : undefined;
    const d = deriveOpenCodeStatus({
      summary: s, live: claim !== undefined,
      server: view ? { status: view.status.get(s.id), permissions: view.permissions.filter((p) => p.sessionId === s.id) } : undefined,
    });
    const { repoRoot, branch } = gitInfo;
    const activity = lastActivityMs(s);
    const main = claim ? procs.get(claim.pid) : undefined;
    return {
      harness: 'opencode', id: s.id, title: s.title, cwd: s.directory, repoRoot, branch,
      live: claim !== undefined, pid: claim?.pid ?? null, pids: claim?.pids ?? [],
      status: d.status, waitingFor: d.waitingFor, statusSince: iso(d.sinceMs),
      startedAt: iso(s.createdMs), lastActivityAt: iso(activity), model: s.model, tokens: { ...s.tokens },
      costUsd: s.costUsd && s.costUsd > 0 ? s.costUsd : (price(s.model, s.tokens) ?? s.costUsd),
      prLinks: [], pane: null,
      // Only an exact claim by a verified OpenCode process may be ended: a cwd guess could stop another conversation.
      canEnd: claim !== undefined && claim.exact && main !== undefined && isOpenCodeProcess(main),
      resumeArgv: opencodeResumeArgv(s.id),
      promptable,
    };
  }

  async function end(id: string): Promise<EndOutcome> {
    if (!isOpenCodeId(id)) throw new MusterError('invalid_id', `Not an OpenCode session id: ${JSON.stringify(id)}`);
    const snap = await snapshot();
    const s = snap.sessions.find((x) => x.id === id);
    const claim = snap.claims.get(id);
    if (!s || !claim || !s.live) return { outcome: 'not_running', reason: 'session is not live' };
    if (!s.canEnd) return { outcome: 'unsupported', reason: 'its OpenCode process is only guessed from the working directory; end it in its terminal' };
    const seen = snap.procs.get(claim.pid);
    const now = proc.read(claim.pid);
    // The pid must still be the same OpenCode process: same start time, still OpenCode's binary.
    if (!seen || !now || now.startTicks !== seen.startTicks || !isOpenCodeProcess(now)) {
      return { outcome: 'not_running', reason: `pid ${claim.pid} no longer belongs to this OpenCode session` };
    }
    let aborted = false;
    if (claim.serverUrl && s.status !== 'idle') aborted = await http.abort(claim.serverUrl, id);
    if (claim.headless) {
      // `opencode serve` also runs other sessions: abort this one's turn, never stop the server.
      return aborted ? { outcome: 'ended', signal: 'abort', pid: claim.pid } : { outcome: 'not_running', reason: 'the server did not accept the abort' };
    }
    // SIGTERM is OpenCode's clean stop: the reply gets MessageAbortedError and time.completed.
    return proc.signal(claim.pid, 'SIGTERM')
      ? { outcome: 'ended', signal: 'SIGTERM', pid: claim.pid }
      : { outcome: 'not_running', reason: `pid ${claim.pid} exited` };
  }

  /** A prompt through the server that runs the session (`serve`, or a TUI started with `--port`). */
  async function prompt(id: string, text: string): Promise<PromptOutcome> {
    if (!isOpenCodeId(id)) return { ok: false, reason: 'refused', message: 'not an OpenCode session id' };
    const snap = await snapshot();
    const url = snap.promptUrls.get(id) ?? snap.serveUrls.get(id);
    if (!url) return { ok: false, reason: 'no_channel', message: 'no OpenCode server runs this session' };
    return (await http.prompt(url, id, text))
      ? { ok: true, via: 'opencode prompt_async' }
      : { ok: false, reason: 'refused', message: `the OpenCode server at ${url} did not take the prompt` };
  }

  return {
    harness: 'opencode',
    prompt,
    async tail(id, limit) {
      if (!isOpenCodeId(id)) throw new MusterError('invalid_id', `Not an OpenCode session id: ${JSON.stringify(id)}`);
      return readOpenCodeTail(dbPath, id, limit);
    },
    async messages(id, from, limit) {
      if (!isOpenCodeId(id)) throw new MusterError('invalid_id', `Not an OpenCode session id: ${JSON.stringify(id)}`);
      // The SQLite store only: a session of the legacy JSON tree has no conversation Muster reads.
      let db: ReturnType<typeof openOpenCodeDb>;
      try {
        db = openOpenCodeDb(dbPath);
      } catch {
        return null;
      }
      try {
        return pageOpenCodeConversation(db, id, from, limit);
      } finally {
        db.close();
      }
    },
    list: async () => (await snapshot()).sessions,
    get: async (id) => (isOpenCodeId(id) ? (await snapshot()).sessions.find((s) => s.id === id) : undefined),
    watch(onChange) {
      const dbName = path.basename(dbPath);
      return watchTargets([
        { dir: path.dirname(dbPath), recursive: false, accept: (n) => n.startsWith(dbName) },
        { dir: storageDir, recursive: true },
      ], () => onChange({ harness: 'opencode', ids: [] }));
    },
    end,
    coldIndex: (onProgress) => (options.cold ? store.coldIndex(options.cold, onProgress) : null),
    resumeArgv: opencodeResumeArgv,
    isValidId: isOpenCodeId,
    diagnostics: (): SourceDiagnostics => ({
      harness: 'opencode', filesScanned: counters.filesScanned, filesSkipped: counters.filesSkipped, linesParsed: counters.linesParsed,
      linesSkipped: counters.linesSkipped, staleRegistryFiles: 0, notRegularFiles: counters.notRegular, errors: [...counters.errors],
    }),
  };
}

function iso(ms: number | null): string | null {
  return ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString();
}
