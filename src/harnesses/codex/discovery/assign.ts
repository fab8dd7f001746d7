/**
 * Which process a held Codex thread is live in. A non-daemon holder: that process (exact). A daemon-held
 * thread: the Codex TUI that claims it, by `resume <id>` in its argv (exact), else by working directory
 * among threads loaded since it started (a guess, so such a session cannot be ended from the board); one
 * no TUI claims is lingering, dormant. Pure and deterministic: the inputs are sorted before use, so the
 * same locks and processes give the same answer in any order.
 */
import { classifyCodexProcess, isShimPair } from './argv.ts';
import type { CodexProcessClass, CodexProcessKind } from './argv.ts';

export interface AssignProcess {
  pid: number;
  ppid: number;
  argv: string[];
  exe: string | null;
  cwd: string | null;
  /** Start time, ms since epoch. */
  startedAtMs: number;
}

export interface AssignThread {
  id: string;
  /** Pids confirmed to hold the thread's writer lock (usually one). */
  holderPids: number[];
  /** Working directory of the thread (rollout or thread index), null when unknown. */
  cwd: string | null;
  /** True when the thread has a rollout file (a TUI writes it at the first prompt). */
  hasRollout: boolean;
  /** Last activity in the rollout, ms since epoch (0 when none). */
  lastActivityMs: number;
  /** When the daemon loaded the thread (lock file time), ms since epoch. */
  loadedAtMs: number;
  /** Thread name from the index, for `codex resume <name>`. */
  name?: string | null;
}

/**
 * - `holder`: the lock holder is a non-daemon Codex process (exec, embedded TUI, IDE app-server): exact.
 * - `argv`: a daemon thread named by a TUI's argv (`codex resume <id>`): exact.
 * - `cwd`: a daemon thread guessed from a TUI's working directory: live, but never ended from the board.
 * - `lingering`: a daemon thread no TUI claims (dormant unless the daemon says a turn is running).
 */
export type AssignmentKind = 'holder' | 'argv' | 'cwd' | 'lingering';

export interface Assignment {
  threadId: string;
  kind: AssignmentKind;
  /** The pid holding the lock. */
  holderPid: number;
  holderKind: CodexProcessKind;
  /** TUI processes attached (shim and native binary both listed), newest TUI first. Empty for holder/lingering. */
  tuiPids: number[];
}

interface Tui {
  /** Pids of the invocation: shim first, then the native binary under it. */
  pids: number[];
  cwd: string | null;
  startedAtMs: number;
  names: NonNullable<CodexProcessClass['names']>;
}

const byNum = (a: number, b: number): number => a - b;
const byStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Groups TUI processes: the npm shim and the native binary it spawned count as one TUI. */
function collectTuis(procs: AssignProcess[], classes: Map<number, CodexProcessClass>, holders: Set<number>): Tui[] {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const tuis: Tui[] = [];
  for (const p of procs) {
    const c = classes.get(p.pid);
    if (!c || c.kind !== 'tui' || !c.names) continue;
    const parent = byPid.get(p.ppid);
    const pc = parent ? classes.get(parent.pid) : undefined;
    if (parent && pc && isShimPair(pc, c)) continue; // counted with its shim
    const child = procs.find((q) => q.ppid === p.pid && classes.get(q.pid) !== undefined && isShimPair(c, classes.get(q.pid) as CodexProcessClass));
    const pids = child ? [p.pid, child.pid] : [p.pid];
    // An embedded TUI holds its own thread's lock: it is that thread's holder, not a daemon client.
    if (pids.some((x) => holders.has(x))) continue;
    tuis.push({ pids, cwd: child?.cwd ?? p.cwd, startedAtMs: Math.min(p.startedAtMs, child?.startedAtMs ?? Infinity), names: c.names });
  }
  // Newest first; pid breaks ties so the order never depends on the input's.
  return tuis.sort((a, b) => b.startedAtMs - a.startedAtMs || (b.pids[0] ?? 0) - (a.pids[0] ?? 0));
}

/** Picks the holder pid of a lock: the daemon if it is one of them, else the lowest Codex pid, else the lowest pid. */
function pickHolder(pids: number[], classes: Map<number, CodexProcessClass>): { pid: number; kind: CodexProcessKind } | null {
  const sorted = [...pids].sort(byNum);
  const daemon = sorted.find((p) => classes.get(p)?.kind === 'daemon');
  if (daemon !== undefined) return { pid: daemon, kind: 'daemon' };
  const codex = sorted.find((p) => { const k = classes.get(p)?.kind; return k !== undefined && k !== 'other' && k !== 'helper'; });
  const pid = codex ?? sorted[0];
  if (pid === undefined) return null;
  return { pid, kind: classes.get(pid)?.kind ?? 'other' };
}

/** Among a TUI's cwd candidates: one with a rollout (newest activity, newest load, larger id), else the earliest. */
function pickByCwd(cands: AssignThread[]): AssignThread | undefined {
  const withRollout = cands.filter((t) => t.hasRollout);
  if (withRollout.length > 0) {
    return [...withRollout].sort((a, b) => b.lastActivityMs - a.lastActivityMs || b.loadedAtMs - a.loadedAtMs || byStr(b.id, a.id))[0];
  }
  // The daemon loads a reviewer thread right after the conversation: the earliest new one is the TUI's own.
  return [...cands].sort((a, b) => a.loadedAtMs - b.loadedAtMs || byStr(a.id, b.id))[0];
}

export function assignCodexThreads(threadsIn: AssignThread[], procsIn: AssignProcess[]): Map<string, Assignment> {
  const threads = [...threadsIn].filter((t) => t.holderPids.length > 0).sort((a, b) => byStr(a.id, b.id));
  const procs = [...procsIn].sort((a, b) => a.pid - b.pid);
  const classes = new Map(procs.map((p) => [p.pid, classifyCodexProcess(p.argv, p.exe)]));
  const out = new Map<string, Assignment>();
  const daemonThreads: AssignThread[] = [];
  const holderOf = new Map<string, { pid: number; kind: CodexProcessKind }>();
  const allHolders = new Set<number>();

  for (const t of threads) {
    const h = pickHolder(t.holderPids, classes);
    if (!h) continue;
    holderOf.set(t.id, h);
    if (h.kind === 'daemon') daemonThreads.push(t);
    else {
      allHolders.add(h.pid);
      out.set(t.id, { threadId: t.id, kind: 'holder', holderPid: h.pid, holderKind: h.kind, tuiPids: [] });
    }
  }

  const tuis = collectTuis(procs, classes, allHolders);
  const claims = new Map<string, number[]>();
  const claim = (t: AssignThread, kind: 'argv' | 'cwd', tui: Tui): void => {
    const h = holderOf.get(t.id) as { pid: number; kind: CodexProcessKind };
    const prev = out.get(t.id);
    const pids = [...(claims.get(t.id) ?? []), ...tui.pids];
    claims.set(t.id, pids);
    // An exact claim outranks a guess when two TUIs land on one thread.
    const k = prev?.kind === 'argv' ? 'argv' : kind;
    out.set(t.id, { threadId: t.id, kind: k, holderPid: h.pid, holderKind: 'daemon', tuiPids: pids });
  };

  // Exact claims first: a TUI that names its thread never guesses another (even when that thread is not loaded).
  const guessing: Tui[] = [];
  for (const tui of tuis) {
    const { id, name } = tui.names;
    if (id === null && name === null) { guessing.push(tui); continue; }
    const t = daemonThreads.find((d) => (id !== null ? d.id.toLowerCase() === id : d.name === name));
    if (t) claim(t, 'argv', tui);
  }
  // Then working-directory guesses, newest TUI first, each taking one thread loaded after it started.
  for (const tui of guessing) {
    if (tui.cwd === null) continue;
    const cands = daemonThreads.filter((t) => !out.has(t.id) && t.cwd === tui.cwd && t.loadedAtMs >= tui.startedAtMs);
    const t = pickByCwd(cands);
    if (t) claim(t, 'cwd', tui);
  }
  for (const t of daemonThreads) {
    if (!out.has(t.id)) {
      const h = holderOf.get(t.id) as { pid: number; kind: CodexProcessKind };
      out.set(t.id, { threadId: t.id, kind: 'lingering', holderPid: h.pid, holderKind: 'daemon', tuiPids: [] });
    }
  }
  return out;
}
