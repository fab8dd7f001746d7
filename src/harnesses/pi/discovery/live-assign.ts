/**
 * Which live process has which session file open. pi and omp keep no lock on their session files,
 * so the mapping is built from evidence of two strengths:
 * - exact: the process names its session (status-extension registry, `--resume`/`--session` argv,
 *   omp's per-tty pointer, a held lease);
 * - guessed: a process with no exact claim takes the newest unclaimed session of its cwd written
 *   since it started (a file older than the process cannot be one it created or resumed and spoke in).
 * The matching is pure and deterministic: the same inputs give the same answer in any order.
 */
export interface LiveProcess {
  pid: number;
  startedAtMs: number;
  cwd: string | null;
  /** Exact claims: full session ids or id prefixes, and session file paths. */
  claimIds: string[];
  claimFiles: string[];
  /** Exact busy/idle state from the status extension, when loaded. */
  exact?: { state: 'busy' | 'idle'; since: string | null } | null;
}

export interface AssignableTranscript {
  id: string;
  path: string;
  cwd: string | null;
  mtimeMs: number;
}

export interface LiveOwner {
  pids: number[];
  /** True when every owning process named this session itself (not a cwd guess). */
  exact: boolean;
  exactState: { state: 'busy' | 'idle'; since: string | null } | null;
  /** A cwd guess made while other unclaimed processes of the harness share that cwd: do not act on it. */
  ambiguous: boolean;
}

/** A file may have been touched this long before the process start we read (clock and tick rounding). */
const START_SLACK_MS = 2000;

export function assignLive(processes: LiveProcess[], transcripts: AssignableTranscript[]): Map<string, LiveOwner> {
  const owners = new Map<string, LiveOwner>();
  const byPath = new Map(transcripts.map((t) => [t.path, t]));
  const procs = [...processes].sort((a, b) => b.startedAtMs - a.startedAtMs || b.pid - a.pid);
  const unclaimed: LiveProcess[] = [];
  for (const p of procs) {
    const ids = new Set<string>();
    for (const f of p.claimFiles) { const t = byPath.get(f); if (t) ids.add(t.id); }
    for (const c of p.claimIds) { const t = matchPrefix(c, transcripts); if (t) ids.add(t.id); }
    if (ids.size === 0) { unclaimed.push(p); continue; }
    for (const id of ids) addOwner(owners, id, p, true);
  }
  for (const p of unclaimed) {
    if (p.cwd === null) continue;
    const pick = transcripts
      .filter((t) => t.cwd === p.cwd && !owners.has(t.id) && t.mtimeMs >= p.startedAtMs - START_SLACK_MS)
      .sort((a, b) => b.mtimeMs - a.mtimeMs || (a.id < b.id ? 1 : -1))[0];
    if (!pick) continue;
    addOwner(owners, pick.id, p, false);
    const owner = owners.get(pick.id);
    if (owner && unclaimed.filter((q) => q.cwd === p.cwd).length > 1) owner.ambiguous = true;
  }
  return owners;
}

function addOwner(owners: Map<string, LiveOwner>, id: string, p: LiveProcess, exact: boolean): void {
  const o = owners.get(id);
  if (!o) { owners.set(id, { pids: [p.pid], exact, exactState: p.exact ?? null, ambiguous: false }); return; }
  if (!o.pids.includes(p.pid)) o.pids.push(p.pid);
  o.exact &&= exact;
  o.exactState ??= p.exact ?? null;
}

/** The one transcript whose id equals or starts with `prefix` (the CLIs accept unique prefixes). */
function matchPrefix(prefix: string, transcripts: AssignableTranscript[]): AssignableTranscript | undefined {
  const p = prefix.toLowerCase();
  if (p.length < 4) return undefined;
  const hits = transcripts.filter((t) => t.id === p || t.id.startsWith(p));
  return hits.length === 1 ? hits[0] : hits.find((t) => t.id === p);
}
