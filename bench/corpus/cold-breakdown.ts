/**
 * Where a cold index's time goes (bench/cold-vs-ccusage.ts prints it after its timed runs):
 * - the daemon's CPU per thread over one more cold run, untimed: its own thread, the index workers
 *   and the search thread (each names itself: discovery/index-pool/thread-name.ts), and every other
 *   thread (V8's compiler and GC helpers, libuv) — read from /proc/<pid>/task/<tid>/stat at every
 *   status poll, the last reading of each thread kept (a worker ends with the index);
 * - `muster ls` right after the index is over, and again once the daemon's writes are done (its CPU
 *   quiet), which is what the writes after a cold index cost the listing that follows it;
 * - Muster's fold alone on one warm thread in this process (the third of three rounds), as the cold
 *   index's first pass reads (no messages, no usage records) and as its second (both; OpenCode's
 *   store: summaries and usage first, conversations second): the per-byte work, without threads,
 *   store or HTTP.
 * Linux only (/proc); elsewhere the per-thread figures are left out.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { foldBatch, INDEX_THREAD_NAME, SEARCH_THREAD_NAME } from '../../src/discovery/index-pool/index.ts';
import type { FileTask } from '../../src/discovery/index-pool/index.ts';
import { INDEX_FOLDS } from '../../src/harnesses/index-folds.ts';
import { OPENCODE_COLD_KIND, chunkTasks } from '../../src/harnesses/opencode/discovery/cold.ts';
import { openOpenCodeDb, readSessionIds } from '../../src/harnesses/opencode/discovery/db-reader.ts';
import { cpuTicks, sleep } from './daemon-kit.ts';

/** USER_HZ on Linux: /proc's CPU figures are in 10 ms ticks. */
const TICK_MS = 10;

/** A thread's utime + stime, ms; null once the thread is gone. */
function taskMs(pid: number, tid: string): number | null {
  try {
    return cpuTicks(pid, tid) * TICK_MS;
  } catch {
    return null;
  }
}

/** The process's utime + stime, every thread's (ended ones too), ms. */
export const processMs = (pid: number): number => cpuTicks(pid) * TICK_MS;

/** `b` less `a`, thread group by thread group (the counts of threads are `b`'s). */
export function cpuSince(a: ThreadCpu, b: ThreadCpu): ThreadCpu {
  return { daemon: b.daemon - a.daemon, index: b.index - a.index, indexThreads: b.indexThreads, search: b.search - a.search, other: b.other - a.other, total: b.total - a.total };
}

export interface ThreadCpu {
  daemon: number;
  index: number;
  indexThreads: number;
  search: number;
  other: number;
  /** The whole process at the last sample (ended threads included). */
  total: number;
}

/** The last CPU reading of each of a process's threads, taken as often as `sample()` is called. */
export function threadSampler(pid: number): { sample(): void; cpu(): ThreadCpu } | null {
  if (!existsSync(`/proc/${pid}/task`)) return null;
  const last = new Map<string, { name: string; ms: number }>();
  let total = 0;
  return {
    sample() {
      let tids: string[];
      try {
        tids = readdirSync(`/proc/${pid}/task`);
        total = processMs(pid);
      } catch {
        return; // the process ended
      }
      for (const tid of tids) {
        const ms = taskMs(pid, tid);
        if (ms === null) continue;
        // Read each time: a worker names itself once it runs, after its first sighting may be.
        let name: string;
        try {
          name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        } catch {
          continue;
        }
        last.set(tid, { name, ms });
      }
    },
    cpu() {
      const out: ThreadCpu = { daemon: 0, index: 0, indexThreads: 0, search: 0, other: 0, total };
      for (const [tid, t] of last) {
        if (tid === String(pid)) out.daemon += t.ms;
        else if (t.name === INDEX_THREAD_NAME) {
          out.index += t.ms;
          out.indexThreads++;
        } else if (t.name === SEARCH_THREAD_NAME) out.search += t.ms;
        else out.other += t.ms;
      }
      return out;
    },
  };
}

/**
 * How many quiet 100 ms spells in a row make a daemon quiet: more than the 500 ms it waits after a cold
 * index before the second pass (search's messages and the usage records; daemon/cold-index.ts), which
 * three spells could take for the end.
 */
export const QUIET_SPELLS = 8;

/**
 * Waits until the process has used no more than a tick in each of QUIET_SPELLS 100 ms spells (at most
 * 10 s); `tick` runs every 100 ms. Without /proc, waits 3 s.
 */
export async function untilQuiet(pid: number, tick: () => void = () => {}): Promise<void> {
  if (!existsSync(`/proc/${pid}/stat`)) return sleep(3000); // no /proc: a fixed wait instead
  const end = performance.now() + 10_000;
  let quiet = 0;
  let before = processMs(pid);
  while (quiet < QUIET_SPELLS && performance.now() < end) {
    await sleep(100);
    tick();
    const now = processMs(pid);
    quiet = now - before <= TICK_MS ? quiet + 1 : 0;
    before = now;
  }
}

/** `muster ls --json` with `env`, spawn to exit, ms. */
export function timeLs(bin: string, env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const ls = spawnSync(process.execPath, [bin, 'ls', '--json'], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (ls.status !== 0) throw new Error(`muster ls failed: ${ls.stderr}`);
  return performance.now() - t0;
}

/** Muster's fold over every transcript under `dir` on this thread, the third of three rounds, ms. */
export function foldAloneMs(kind: 'claude' | 'codex' | 'pi' | 'opencode', dir: string, messages: boolean): number {
  // As the cold index's passes read: the first without messages nor usage records, the second with both
  // (OpenCode's store: the first its sessions' summaries and usage, the second their conversations).
  const tasks = kind === 'opencode' ? openCodeTasks(dir, messages) : transcriptTasks(dir, messages);
  let ms = 0;
  for (let round = 0; round < 3; round++) {
    const t = tasks();
    const t0 = performance.now();
    const results = foldBatch(INDEX_FOLDS, kind === 'opencode' ? OPENCODE_COLD_KIND : kind, t);
    ms = performance.now() - t0;
    if (results.some((r) => !r.ok)) throw new Error(`the fold failed on ${results.filter((r) => !r.ok).length} files`);
  }
  return ms;
}

function transcriptTasks(dir: string, messages: boolean): () => FileTask[] {
  const files = (readdirSync(dir, { recursive: true }) as string[]).map((f) => join(dir, f)).filter((f) => f.endsWith('.jsonl'));
  return () => files.map((path) => ({ path, from: 0, summary: null, bytes: statSync(path).size, messages, toolOutput: false, ...(messages ? {} : { usage: false }) }));
}

/** The store's top-level sessions in the cold index's chunks (`dir` is XDG_DATA_HOME). */
function openCodeTasks(dir: string, messages: boolean): () => FileTask[] {
  const dbPath = join(dir, 'opencode', 'opencode.db');
  const db = openOpenCodeDb(dbPath);
  const ids = readSessionIds(db);
  db.close();
  return () => chunkTasks(dbPath, ids, statSync(dbPath).size, ids.length).map((t) => ({ ...t, messages }));
}
