/**
 * What the daemon benchmarks share: a real `muster serve` (the built CLI, via test/e2e/kit.ts) in a
 * temp MUSTER_HOME, token-authenticated API calls, /proc readings of its CPU and RSS, fake `claude`
 * processes (real sleepers whose argv[0] is `claude`) and a quick many-session Claude home.
 * Every child started here is remembered and killed by pid at exit.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cwdToSlug } from '../../src/harnesses/claude/discovery/index.ts';
import { assistantLine, metaLine, userLine } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';
import { envFor, startServe, tempHome, waitExit } from '../../test/e2e/kit.ts';
import { uuidV4, createRng } from './text-pool.ts';

const children = new Set<ChildProcess>();
export function killChildren(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null && c.pid) c.kill('SIGKILL');
  children.clear();
}

/**
 * A bench's temp home and the daemon environment over it; on exit (also after Ctrl-C) every child
 * started here is killed and the home removed. `cleanup` may also be called early; it is idempotent.
 */
export function benchHome(prefix: string): { home: string; env: NodeJS.ProcessEnv; cleanup(): void } {
  const t = tempHome(prefix);
  const cleanup = (): void => { killChildren(); t.cleanup(); };
  process.on('exit', cleanup);
  process.on('SIGINT', () => process.exit(130));
  return { home: t.home, env: envFor(t.home), cleanup };
}

export interface RunningDaemon {
  child: ChildProcess;
  pid: number;
  base: string;
  token: string;
  /** ms from spawn to the serve envelope on stdout (listening, first scan may still run). */
  startMs: number;
  stop(): Promise<void>;
}

export async function startDaemon(env: NodeJS.ProcessEnv): Promise<RunningDaemon> {
  const t0 = performance.now();
  const { child, envelope } = await startServe(env);
  const startMs = performance.now() - t0;
  children.add(child);
  const url = new URL(envelope.boardUrl);
  return {
    child, pid: envelope.pid, startMs, base: `${url.protocol}//${url.host}`, token: url.searchParams.get('token') ?? '',
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await waitExit(child, 20_000);
      children.delete(child);
    },
  };
}

/** GET with the daemon's token; the JSON body and the wall time. */
export async function api(d: RunningDaemon, path: string): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${d.base}${path}`, { headers: { authorization: `Bearer ${d.token}` } });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, ms: performance.now() - t0 };
}

/** utime + stime of a process (or of its thread `tid`) in clock ticks (/proc/<pid>[/task/<tid>]/stat fields 14 and 15). */
export function cpuTicks(pid: number, tid?: string): number {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** /proc/<pid>/stat field 22 (what Claude records as procStart). */
export function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** Resident set size in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** A real process posing as Claude Code (argv[0] `claude`), alive for `seconds`. */
export function spawnFakeClaude(seconds = 600): ChildProcess {
  const c = spawn('bash', ['-c', `exec -a claude sleep ${seconds}`], { stdio: 'ignore' });
  children.add(c);
  return c;
}

/** Spawns any bounded helper process and remembers it for cleanup. */
export function track(c: ChildProcess): ChildProcess {
  children.add(c);
  return c;
}

/**
 * `n` small Claude transcripts (a prompt, an ignored attachment, two assistant records, a title)
 * over `projects` project dirs; returns the session ids. Cheap enough for 10,000 in seconds.
 */
export function writeManyClaudeTranscripts(claudeHome: string, n: number, projects = 100): string[] {
  const rng = createRng(5);
  const ids: string[] = [];
  const made = new Set<string>();
  for (let i = 0; i < n; i++) {
    const id = uuidV4(rng);
    const cwd = `/home/dev/work/project-${i % projects}`;
    const dir = join(claudeHome, 'projects', cwdToSlug(cwd));
    if (!made.has(dir)) { mkdirSync(dir, { recursive: true }); made.add(dir); }
    const ts = new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString();
    const lines = [
      userLine(`task ${i}: fix the flaky test in module ${i % 97}`, { sessionId: id, cwd, ts }),
      JSON.stringify({ parentUuid: 'u1', isSidechain: false, attachment: { type: 'skill_listing', content: 'x'.repeat(1500) }, type: 'attachment', sessionId: id }),
      assistantLine({ id: `msg_${i}_a`, sessionId: id, cwd, ts, input: 1000 + i, output: 50, content: 'tool_use' }),
      assistantLine({ id: `msg_${i}_b`, sessionId: id, cwd, ts, input: 1200 + i, output: 80 }),
      metaLine('last-prompt', { lastPrompt: `task ${i}` }, id),
    ];
    writeFileSync(join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
    ids.push(id);
  }
  return ids;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** Nearest-rank percentile (q in 0..1). */
export function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
