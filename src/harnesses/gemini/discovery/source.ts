/**
 * The Gemini CLI source. Sessions are the chat files under `<gemini home>/tmp/<project>/chats/` (merged by
 * session id); a session is live when a verified gemini worker has it (live.ts: hook sightings,
 * argv, or a working-directory guess), and its status is what its hooks last reported — unknown
 * (Session.statusKnown false), never guessed, when no hook reports on its process. A dormant session
 * that never got a prompt (Gemini writes the file at start) is not listed.
 */
import type { EndOutcome, SessionSource, SourceDiagnostics, TranscriptIndex } from '../../../discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { createGitReader, type GitReader } from '../../../discovery/git/index.ts';
import { createProc } from '../../../discovery/proc/index.ts';
import type { ProcPort, ProcessTable } from '../../../discovery/proc/types.ts';
import { priceByModel } from '../../../discovery/pricing/index.ts';
import type { Session, TokenCounts } from '../../../core/session.ts';
import { isUuid } from '../../../core/ids.ts';
import { MusterError } from '../../../errors/index.ts';
import type { HookSightings } from '../../adapter.ts';
import { geminiResumeArgv } from '../commands.ts';
import { scanChats, type ChatSession } from './chat-scan.ts';
import { pageGeminiConversation } from './conversation.ts';
import { assignLive, type LiveClaim } from './live.ts';
import { geminiWorkers, sameWorker, type GeminiWorker } from './processes.ts';
import { readGeminiTail } from './tail.ts';
import { watchGemini } from './watch.ts';

export interface GeminiSourceOptions {
  /** Gemini's home (`~/.gemini`, or `$GEMINI_CLI_HOME/.gemini`; resolved by the adapter). */
  home: string;
  /** Default: the real process table (createProc()). */
  proc?: ProcPort;
  /** Default: an in-memory index (the daemon passes the store's). */
  index?: TranscriptIndex;
  /** Default: createGitReader({ ttlMs: 2000 }). */
  git?: GitReader;
  /** What Muster's hooks reported (the daemon's hook service). Default: none — no status is known. */
  sightings?: HookSightings;
  /** USD for a model's tokens; null for a model the table does not know. Default: priceByModel. */
  price?: (byModel: Readonly<Record<string, TokenCounts>>, model: string | null) => number | null;
}

interface Snapshot {
  sessions: Session[];
  chats: Map<string, ChatSession>;
  workers: Map<number, GeminiWorker>;
}

export function createGeminiSource(options: GeminiSourceOptions): SessionSource {
  const { home } = options;
  const proc = options.proc ?? createProc();
  const index = options.index ?? createMemoryTranscriptIndex();
  const git = options.git ?? createGitReader({ ttlMs: 2000 });
  const price = options.price ?? priceByModel;
  let diag: SourceDiagnostics = { harness: 'gemini', filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, staleRegistryFiles: 0, notRegularFiles: 0, errors: [] };

  const snapshot = (): Snapshot => {
    const table: ProcessTable = proc.snapshot();
    const scan = scanChats(home, index);
    const workers = geminiWorkers(table, proc.environ ? (pid) => proc.environ?.(pid) ?? null : undefined);
    const claims = assignLive(workers, options.sightings?.of('gemini') ?? [], scan.sessions);
    const sessions = scan.sessions.filter((c) => claims.has(c.id) || c.messages > 0).map((c) => toSession(c, claims.get(c.id)));
    diag = {
      harness: 'gemini', filesScanned: scan.filesScanned, filesSkipped: scan.filesSkipped, linesParsed: scan.linesParsed, linesSkipped: scan.linesSkipped,
      staleRegistryFiles: 0, notRegularFiles: scan.notRegular, errors: scan.errors.slice(0, 20),
    };
    return { sessions, chats: new Map(scan.sessions.map((c) => [c.id, c])), workers: new Map(workers.map((w) => [w.pid, w])) };
  };

  const toSession = (c: ChatSession, claim: LiveClaim | undefined): Session => {
    const live = claim !== undefined;
    // The most urgent of its workers' hook reports; none: the status is not known.
    const hook = claim?.sightings[0];
    const repo = c.cwd ? safeGit(git, c.cwd) : { repoRoot: null, branch: null };
    const status = !live ? 'ended' : hook && hook.status !== 'ended' ? hook.status : 'idle';
    const lastActivityAt = c.lastActivityAt ?? new Date(c.lastWriteMs).toISOString();
    return {
      harness: 'gemini', id: c.id, title: c.title ?? c.firstPrompt ?? '', cwd: c.cwd, repoRoot: repo.repoRoot, branch: repo.branch,
      live, pid: claim?.pids[0] ?? null, pids: claim ? [...claim.pids] : [],
      status,
      waitingFor: status === 'waiting' ? (hook?.waitingFor ?? null) : null,
      statusSince: !live ? lastActivityAt : hook ? new Date(hook.at).toISOString() : null,
      ...(live && !hook ? { statusKnown: false } : {}),
      startedAt: c.startedAt, lastActivityAt,
      model: c.model, tokens: { ...c.tokens }, costUsd: price(c.byModel, c.model),
      prLinks: [], pane: null,
      canEnd: live && !claim.ambiguous,
      resumeArgv: geminiResumeArgv(c.id),
    };
  };

  const isValidId = (id: string): boolean => typeof id === 'string' && isUuid(id);
  const find = (snap: Snapshot, id: string) => snap.sessions.find((s) => s.id === id.toLowerCase());

  return {
    harness: 'gemini',
    async list() {
      return snapshot().sessions;
    },
    async get(id) {
      return isValidId(id) ? find(snapshot(), id) : undefined;
    },
    watch: (onChange) => watchGemini({ home }, onChange),
    async end(id): Promise<EndOutcome> {
      if (!isValidId(id)) throw new MusterError('invalid_id', `not a gemini session id: ${JSON.stringify(id)}`);
      const snap = snapshot();
      const s = find(snap, id);
      if (!s?.live || s.pid === null) return { outcome: 'not_running', reason: 'no live gemini process has this session open' };
      if (!s.canEnd) return { outcome: 'unsupported', reason: 'the process was matched by working directory among several; end it from its terminal' };
      let ended: number | null = null;
      for (const pid of s.pids) {
        // Re-read right before signalling: the same worker (same start), never a reused pid. The
        // worker, not its loader, which ignores SIGTERM; the loader exits with it.
        const w = snap.workers.get(pid);
        if (w && sameWorker(proc.read(pid), w) && proc.signal(pid, 'SIGTERM')) ended ??= pid;
      }
      return ended === null ? { outcome: 'not_running', reason: 'the process is gone or is no longer this gemini' } : { outcome: 'ended', signal: 'SIGTERM', pid: ended };
    },
    resumeArgv: (id) => geminiResumeArgv(id),
    isValidId,
    diagnostics: () => ({ ...diag, errors: [...diag.errors] }),
    async tail(id, limit) {
      if (!isValidId(id)) return [];
      const file = snapshot().chats.get(id.toLowerCase())?.files[0];
      return file ? readGeminiTail(file, limit) : [];
    },
    async messages(id, from, limit) {
      if (!isValidId(id)) return null;
      // Through the scan (incremental: only changed files are read), so only listed files are opened.
      const chat = scanChats(home, index).sessions.find((c) => c.id === id.toLowerCase());
      return chat ? pageGeminiConversation(chat.files, from, limit) : null;
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
