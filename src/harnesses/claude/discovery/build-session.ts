/**
 * Normalises what is known about one Claude session — its transcript summary and the live registry
 * entries naming it (several when it was resumed in two processes at once) — into a Session.
 */
import { claudeResumeArgv } from '../commands.ts';
import type { Session, SessionProcess, SessionStatus, TokenCounts } from '../../../core/session.ts';
import { emptyTokens } from '../../../core/session.ts';
import type { GitInfo } from '../../../discovery/git/index.ts';
import { paneFromTmuxField } from './registry.ts';
import type { RegistryEntry } from './registry.ts';
import { titleOf } from './transcript.ts';
import type { TranscriptSummary } from './transcript.ts';
import { costOf } from './transcript-usage.ts';
import type { ForkShare } from './forks.ts';

/** Anthropic's prompt cache lives 5 minutes after its last use. */
export const PROMPT_CACHE_TTL_MS = 5 * 60 * 1000;

export interface SessionParts {
  id: string;
  summary: TranscriptSummary | null;
  /** Mtime of the transcript: last activity only when the records carry no time. */
  transcriptMtimeMs: number | null;
  /** Live registry entries for this session, verified against the process table. */
  live: RegistryEntry[];
  /** Repository facts of the session's cwd, null when there is no cwd. */
  git: (cwd: string) => GitInfo;
  /** What this session, a fork, shares with the session it was forked from (forks.ts). */
  fork?: ForkShare;
  /** The cwd another transcript of the same project folder records, for a transcript without one. */
  folderCwd?: string | null;
}

/**
 * Registry status → Session status. `shell` is Claude running a `!command` for the user. Any state
 * other than the four known ones (`needs_user`, `needs_trust`, `blocked`…) is Claude stopped on
 * something: waiting, never idle.
 */
export function statusFromRegistry(status: string | null): SessionStatus {
  switch (status) {
    case 'busy':
    case 'shell':
      return 'working';
    case 'idle':
    case null:
    case '':
      return 'idle'; // null right after start, before the first status write
    default:
      return 'waiting';
  }
}

/** What a waiting entry waits for: its own `waitingFor`, else the state it reports (`needs_trust` → "needs trust"). */
export function waitingReason(e: Pick<RegistryEntry, 'status' | 'waitingFor'>): string {
  if (e.waitingFor) return e.waitingFor;
  return e.status && e.status !== 'waiting' ? e.status.replace(/_/g, ' ') : 'input needed';
}

const RANK: Record<SessionStatus, number> = { waiting: 3, working: 2, stuck: 1, idle: 0, ended: -1 };

/**
 * The process that speaks for the session: an interactive one over a `-p` run or a background
 * worker, then the most recently started (the newest resume is what the operator looks at).
 */
export function mainEntry(entries: RegistryEntry[]): RegistryEntry | undefined {
  const score = (e: RegistryEntry): number => (e.kind === 'interactive' && e.entrypoint === 'cli' ? 1 : 0);
  return [...entries].sort((a, b) => score(b) - score(a) || (b.startedAt ?? 0) - (a.startedAt ?? 0) || b.pid - a.pid)[0];
}

function iso(ms: number | null): string | null {
  return ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString();
}

function latest(...times: Array<string | null>): string | null {
  return times.reduce<string | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);
}

/** The transcript's tokens less those a fork copied from its parent. */
function ownTokens(s: TranscriptSummary, fork: ForkShare | undefined): TokenCounts {
  const t = { ...s.usage.tokens };
  if (fork) for (const k of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) t[k] = Math.max(0, t[k] - fork.shared[k]);
  return t;
}

/** One registry entry as a process of the session: its own status, reason and pane. */
function processOf(e: RegistryEntry): SessionProcess {
  const status = statusFromRegistry(e.status);
  return {
    pid: e.pid,
    status,
    waitingFor: status === 'waiting' ? waitingReason(e) : null,
    statusSince: iso(e.statusUpdatedAt ?? e.startedAt),
    pane: paneFromTmuxField(e.tmux),
    startedAt: iso(e.startedAt),
  };
}

function registryTitle(entries: RegistryEntry[]): string | null {
  // `derived` names (`proj-f0`) change on every resume; prefer names a person or the model gave.
  const given = entries.find((e) => e.name && (e.nameSource === 'user' || e.nameSource === 'auto'));
  return given?.name ?? entries.find((e) => e.name)?.name ?? null;
}

export function buildSession(parts: SessionParts): Session {
  const { id, summary: s, live } = parts;
  const main = mainEntry(live);
  const cwd = main?.cwd ?? s?.cwd ?? parts.folderCwd ?? null;
  const git = cwd ? parts.git(cwd) : { repoRoot: null, branch: null };
  // A dormant session keeps the branch it was on; only a meaningless "HEAD" (or none)
  // is replaced by the repo's current branch. A live one is on whatever is checked out now.
  const recorded = s?.gitBranch && s.gitBranch !== 'HEAD' ? s.gitBranch : null;
  const branch = main ? (git.branch ?? recorded) : (recorded ?? git.branch);

  // Oldest first, so each process keeps its place in the list while another comes and goes.
  const processes = live.map(processOf).sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? '') || a.pid - b.pid);
  // The session speaks with the voice of its most urgent process.
  let status: SessionStatus = 'ended';
  let waitingFor: string | null = null;
  let statusSince: string | null = null;
  for (const p of processes) {
    if (status === 'ended' || RANK[p.status] > RANK[status]) ({ status, waitingFor, statusSince } = p);
  }
  if (status === 'ended') statusSince = s?.lastAt ?? iso(parts.transcriptMtimeMs);

  const cacheFrom = s?.lastAssistantAt ? Date.parse(s.lastAssistantAt) : NaN;
  const live_ = main !== undefined;
  return {
    harness: 'claude',
    id,
    title: (s ? titleOf(s) : null) ?? registryTitle(live) ?? '',
    cwd,
    repoRoot: git.repoRoot,
    branch,
    live: live_,
    pid: main?.pid ?? null,
    pids: live.map((e) => e.pid).sort((a, b) => a - b),
    status,
    waitingFor,
    statusSince,
    startedAt: s?.firstAt ?? iso(Math.min(...live.map((e) => e.startedAt ?? Infinity))),
    // The last record's time, not the file's mtime (a copied or restored ~/.claude is all "just now").
    lastActivityAt: latest(s?.lastAt ?? iso(parts.transcriptMtimeMs), ...live.map((e) => iso(e.updatedAt))),
    model: s?.model ?? null,
    tokens: s ? ownTokens(s, parts.fork) : emptyTokens(),
    costUsd: s ? costOf(s.usage, parts.fork) : null,
    prLinks: s ? [...s.prLinks] : [],
    pane: paneFromTmuxField(main?.tmux ?? live.find((e) => e.tmux)?.tmux ?? null),
    // Liveness already required the process to be Claude with the recorded start time (live.ts).
    canEnd: live_,
    resumeArgv: claudeResumeArgv(id),
    cacheExpiresAt: Number.isFinite(cacheFrom) ? new Date(cacheFrom + PROMPT_CACHE_TTL_MS).toISOString() : null,
    forkedFrom: parts.fork?.forkedFrom ?? null,
    processes,
  };
}
