/**
 * One Codex thread's facts → the normalised Session. Pure apart from the injected git reader.
 */
import { codexResumeArgv } from '../commands.ts';
import type { Session } from '../../../core/session.ts';
import { emptyTokens } from '../../../core/session.ts';
import type { GitReader } from '../../../discovery/git/index.ts';
import { priceByModel, priceTokens } from '../../../discovery/pricing/index.ts';
import type { Assignment } from './assign.ts';
import type { DaemonThreadStatus } from './app-server-client.ts';
import type { RolloutSummary } from './rollout.ts';
import { titleFromPrompt } from './rollout.ts';
import { liveStatus, turnRunning } from './status.ts';
import type { ThreadRow } from './thread-store.ts';

export interface ThreadFacts {
  id: string;
  summary: RolloutSummary | null;
  row: ThreadRow | null;
  name: string | null;
  assignment: Assignment | null;
  daemon: DaemonThreadStatus | null;
}

/** How a live thread can be ended with its clean signal (exec: SIGINT; daemon: turn/interrupt), or why it cannot. */
export type EndPlan =
  | { kind: 'sigint'; pid: number }
  | { kind: 'daemon'; daemonPid: number; tuiPids: number[] }
  | { kind: 'none'; reason: string };

/** Creation time encoded in a UUIDv7 (first 48 bits, ms), null for other versions. */
export function uuidV7Time(id: string): string | null {
  if (id[14] !== '7') return null;
  const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** Whether the thread is live, in which pids, and how it could be ended. */
export function liveness(f: ThreadFacts): { live: boolean; pid: number | null; pids: number[]; plan: EndPlan } {
  const a = f.assignment;
  if (!a) return { live: false, pid: null, pids: [], plan: { kind: 'none', reason: 'not running' } };
  switch (a.kind) {
    case 'holder': {
      const plan: EndPlan = a.holderKind === 'exec'
        ? { kind: 'sigint', pid: a.holderPid }
        : { kind: 'none', reason: a.holderKind === 'tui'
          ? 'an embedded Codex TUI dies uncleanly on a signal: interrupt it in its pane (Esc), then /quit'
          : `the thread is held by a ${a.holderKind} process that Muster does not end` };
      return { live: true, pid: a.holderPid, pids: [a.holderPid], plan };
    }
    case 'argv':
      return { live: true, pid: a.tuiPids[0] ?? a.holderPid, pids: [...a.tuiPids, a.holderPid], plan: { kind: 'daemon', daemonPid: a.holderPid, tuiPids: a.tuiPids } };
    case 'cwd':
      return {
        live: true, pid: a.tuiPids[0] ?? a.holderPid, pids: [...a.tuiPids, a.holderPid],
        plan: { kind: 'none', reason: 'this TUI was matched to the thread by its working directory only (a guess); end it in its pane' },
      };
    case 'lingering':
      // Detached from every TUI: live only while the daemon still runs its turn (it unloads an idle thread 60 s later).
      if (!turnRunning(f.summary, f.daemon)) return { live: false, pid: null, pids: [], plan: { kind: 'none', reason: 'not running' } };
      return { live: true, pid: a.holderPid, pids: [a.holderPid], plan: { kind: 'daemon', daemonPid: a.holderPid, tuiPids: [] } };
  }
}

/**
 * Whether the shared daemon holds the thread and answered for it just now: then its `turn/start` takes
 * a prompt (prompt.ts), whether a TUI is attached or the thread only lingers (listed dormant) until the
 * daemon unloads it. Exec and embedded-TUI holders run their own in-process server, out of reach.
 */
function promptable(f: ThreadFacts): boolean {
  const a = f.assignment;
  return a !== null && a.kind !== 'holder' && a.holderKind === 'daemon' && f.daemon !== null && f.daemon.type !== 'notLoaded';
}

export function buildSession(f: ThreadFacts, git: GitReader): { session: Session; plan: EndPlan } {
  const s = f.summary;
  const { live, pid, pids, plan } = liveness(f);
  const cwd = s?.cwd ?? f.row?.cwd ?? f.daemon?.cwd ?? null;
  let repoRoot: string | null = null;
  let branch = s?.branch ?? f.row?.gitBranch ?? null;
  if (cwd !== null) {
    try {
      const g = git.read(cwd);
      repoRoot = g.repoRoot;
      // A session keeps its branch; only a meaningless HEAD (or none) takes the repo's current one.
      if (branch === null || branch === 'HEAD') branch = g.branch ?? branch;
    } catch { /* a vanished cwd keeps the recorded branch */ }
  }
  const st = live ? liveStatus(s, f.daemon) : { status: 'ended' as const, waitingFor: null, statusSince: s?.lastActivityAt ?? null };
  const model = s?.model ?? f.row?.model ?? null;
  const tokens = s ? { ...s.tokens } : emptyTokens();
  const title = f.name ?? f.row?.name ?? f.daemon?.name ?? (titleFromPrompt(s?.firstPrompt ?? null) || titleFromPrompt(f.row?.title ?? null));
  const lastActivityAt = s?.lastActivityAt ?? (f.row?.updatedAtMs ? new Date(f.row.updatedAtMs).toISOString() : null);
  const session: Session = {
    harness: 'codex',
    id: f.id,
    title,
    cwd,
    repoRoot,
    branch,
    live,
    pid,
    pids,
    status: st.status,
    waitingFor: st.waitingFor,
    statusSince: st.statusSince,
    startedAt: s?.startedAt ?? uuidV7Time(f.id),
    lastActivityAt,
    model,
    tokens,
    // Each model's share at its own price; a thread with no tokens yet keeps a known model's 0.
    costUsd: s && Object.keys(s.byModel).length > 0 ? priceByModel(s.byModel, model) : priceTokens(model, tokens),
    prLinks: [],
    pane: null,
    canEnd: live && plan.kind !== 'none',
    // A TUI holding the thread's lock (embedded) or naming it in its argv is this thread's process, verified.
    processVerified: live && (f.assignment?.kind === 'argv' || (f.assignment?.kind === 'holder' && f.assignment.holderKind === 'tui') || plan.kind !== 'none'),
    resumeArgv: codexResumeArgv(f.id),
    promptable: promptable(f),
  };
  return { session, plan };
}
