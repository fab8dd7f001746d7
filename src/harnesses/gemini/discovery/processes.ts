/**
 * Gemini CLI processes in the process table. Every run is two processes (0.61.0, observed): the
 * loader (`node …/gemini [args]`) relaunches itself as a child with a bigger heap
 * (`node --max-old-space-size=N …/gemini [args]`, GEMINI_CLI_NO_RELAUNCH=true in its environment)
 * and waits, ignoring SIGINT, SIGTERM and SIGHUP. The child, the worker, is the agent: it writes the
 * chat file, runs the hooks (their parent pid) and is the one to signal. The worker is told apart as
 * Gemini itself tells whether to relaunch (GEMINI_CLI_NO_RELAUNCH or SANDBOX set); where the environment
 * cannot be read, by having no gemini child of its own.
 */
import path from 'node:path';
import type { ProcInfo, ProcessTable } from '../../../discovery/proc/types.ts';
import { isUuid } from '../../../core/ids.ts';

export interface GeminiWorker {
  pid: number;
  startTicks: number;
  startedAtMs: number;
  cwd: string | null;
  /** The session its argv names (`--session-id`, `--resume <uuid>`), lower-case; null when none. */
  argvSession: string | null;
}

const RUNTIME = /^(node|nodejs|bun)([-.]?\d[\w.]*)?(\.exe)?$/;
const SCRIPT = /(^|[/\\])gemini(\.js)?$|[/\\]@google[/\\]gemini-cli[/\\]/;

/** The gemini script a JavaScript runtime runs (its first argument that is not a runtime option), or a gemini binary. */
export function isGeminiProcess(p: Pick<ProcInfo, 'argv' | 'exe'>): boolean {
  const exe = p.exe === null ? '' : path.basename(p.exe);
  if (exe === 'gemini') return true;
  if (!RUNTIME.test(exe)) return false;
  const script = p.argv.slice(1, 6).find((a) => !a.startsWith('-'));
  return script !== undefined && SCRIPT.test(script);
}

/** The session id an argv names; `--resume latest` or an index names none. */
export function argvSession(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') return null;
    const eq = /^(--session-id|--resume|-r)=(.*)$/.exec(a);
    const v = eq ? eq[2] : a === '--session-id' || a === '--resume' || a === '-r' ? argv[i + 1] : undefined;
    if (v !== undefined && isUuid(v)) return v.toLowerCase();
  }
  return null;
}

/** The workers among the table's gemini processes. `environ` reads a process's environment (null when it cannot). */
export function geminiWorkers(table: ProcessTable, environ?: (pid: number) => ReadonlyMap<string, string> | null): GeminiWorker[] {
  const gemini = [...table.byPid.values()].filter(isGeminiProcess);
  const ids = new Set(gemini.map((p) => p.pid));
  const out: GeminiWorker[] = [];
  for (const p of gemini) {
    // Gemini's own test: it relaunches itself unless GEMINI_CLI_NO_RELAUNCH or SANDBOX is set.
    const env = environ?.(p.pid) ?? null;
    const worker = env ? !!env.get('GEMINI_CLI_NO_RELAUNCH') || !!env.get('SANDBOX') : !(table.children.get(p.pid) ?? []).some((c) => ids.has(c));
    if (worker) out.push({ pid: p.pid, startTicks: p.startTicks, startedAtMs: p.startedAtMs, cwd: p.cwd, argvSession: argvSession(p.argv) });
  }
  return out;
}

/** True when `p` is still the worker `w` was (same start: never a reused pid). */
export function sameWorker(p: ProcInfo | undefined, w: Pick<GeminiWorker, 'startTicks'>): boolean {
  return p !== undefined && p.startTicks === w.startTicks && isGeminiProcess(p);
}
