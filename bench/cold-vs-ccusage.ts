/**
 * Issue 17 — the first start beside the fastest peer, on the same bytes, in one run: ccusage (installed
 * here into a temporary directory with npm, its native binary timed) and Muster (the built CLI), over a
 * generated Claude corpus and a generated Codex corpus, warm page cache.
 * - whole: what a user waits for. ccusage: `ccusage <harness> session --json --offline`, spawn to exit.
 *   Muster: `muster up` on a fresh MUSTER_HOME, then at once `muster ls --json`, which has the daemon
 *   hold its listing until the cold index is over: spawn of `up` to exit of `ls` listing every session.
 * - transcripts: the same minus each tool's time on an empty home (its fixed cost), medians.
 * - where Muster's time goes (corpus/cold-breakdown.ts): one more cold run, untimed, with the daemon's
 *   CPU per thread until `ls` answered (the index over) and `ls` once more when its writes and its second pass are done; and the fold
 *   alone on one warm thread of this process, with and without search's messages.
 * Runs alternate ccusage / Muster / empty homes so load drift on a shared machine hits both alike.
 * Env: BENCH_CORPUS_MB (default 468), BENCH_CORPUS_FILES (800), BENCH_RUNS (5), BENCH_HARNESSES
 * (claude,codex), CCUSAGE_VERSION (pinned in corpus/ccusage.ts). Needs `npm run build` first.
 * Run: node --import tsx bench/cold-vs-ccusage.ts
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { envFor } from '../test/e2e/kit.ts';
import { PEER_HARNESSES, generatePeerCorpus, homeVars, makeEmptyHome } from './corpus/peer-corpora.ts';
import type { PeerHarness } from './corpus/peer-corpora.ts';
import { installCcusage, runCcusage } from './corpus/ccusage.ts';
import type { Ccusage } from './corpus/ccusage.ts';
import { median } from './corpus/daemon-kit.ts';
import { QUIET_SPELLS, cpuSince, foldAloneMs, threadSampler, timeLs, untilQuiet } from './corpus/cold-breakdown.ts';
import type { ThreadCpu } from './corpus/cold-breakdown.ts';

type Harness = PeerHarness;
const MiB = 1024 * 1024;
const TOTAL_MB = Number(process.env.BENCH_CORPUS_MB ?? 468);
const FILES = Number(process.env.BENCH_CORPUS_FILES ?? 800);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const HARNESSES = (process.env.BENCH_HARNESSES ?? PEER_HARNESSES.join(',')).split(',').map((h) => h.trim()) as Harness[];
const BIN = join(import.meta.dirname, '..', 'bin', 'muster.js');
const tmp = mkdtempSync(join(tmpdir(), 'muster-bench-vs-ccusage-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

/** The environment naming `dir` as the harness's home (and a HOME with nothing else in it). */
function harnessEnv(harness: Harness, dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = join(tmp, 'user-home');
  mkdirSync(home, { recursive: true });
  return { ...envFor(home, extra), ...homeVars(harness, dir) };
}

interface MusterRun {
  ms: number;
  upMs: number;
  sessions: number;
  tokens: { input: number; output: number };
  /** With `breakdown`: the daemon's CPU per thread until `ls` answered (the index over), and `ls` once its writes were done. */
  breakdown?: { indexMs: number; lsMs: number; cpu: ThreadCpu | null; after: ThreadCpu | null; quietMs: number; lsQuietMs: number };
}

/** `muster ls --json` in a child process; `tick` (if any) every 10 ms until it exits. */
function runLs(env: NodeJS.ProcessEnv, tick?: () => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'ls', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  const timer = tick ? setInterval(tick, 10) : undefined;
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/**
 * `muster up`, then `muster ls --json` at once (it waits for the cold index): spawn of `up` to the
 * listing, on a fresh MUSTER_HOME. `breakdown` (an untimed run): the daemon's threads are read every
 * 10 ms until `ls` is done, and `ls` runs once more when the daemon is quiet.
 */
async function runMuster(harness: Harness, dir: string, breakdown = false): Promise<MusterRun> {
  const musterHome = mkdtempSync(join(tmp, 'muster-home-'));
  const env = harnessEnv(harness, dir, { MUSTER_HOME: musterHome });
  try {
    const t0 = performance.now();
    const up = spawnSync(process.execPath, [BIN, 'up'], { env, encoding: 'utf8' });
    const upMs = performance.now() - t0;
    if (up.status !== 0) throw new Error(`muster up failed: ${up.stderr}`);
    const envelope = JSON.parse(up.stdout) as { pid: number };
    const threads = breakdown ? threadSampler(envelope.pid) : null;
    // `muster ls` at once, as a user would: it asks the daemon to hold its listing until the cold index
    // is over, so no one polls the daemon meanwhile. It waits 2 s at most: over a longer index (a larger
    // BENCH_CORPUS_MB) it lists what is read so far, and is run again, as a user would, until it is whole.
    let listing: { sessions: { tokens: { input: number; output: number } }[]; indexing?: { active?: boolean } };
    do {
      const ls = await runLs(env, threads ? () => threads.sample() : undefined);
      if (ls.code !== 0) throw new Error(`muster ls failed: ${ls.stderr}`);
      listing = JSON.parse(ls.stdout) as typeof listing;
    } while (listing.indexing?.active);
    const ms = performance.now() - t0;
    let more: MusterRun['breakdown'];
    if (breakdown) {
      const cpu = threads?.cpu() ?? null;
      await untilQuiet(envelope.pid, () => threads?.sample());
      const after = threads && cpu ? cpuSince(cpu, threads.cpu()) : null;
      more = { indexMs: ms, lsMs: ms - upMs, cpu, after, quietMs: performance.now() - t0, lsQuietMs: timeLs(BIN, env) };
    }
    const sessions = listing.sessions;
    const tokens = { input: 0, output: 0 };
    for (const s of sessions) {
      tokens.input += s.tokens.input;
      tokens.output += s.tokens.output;
    }
    return { ms, upMs, sessions: sessions.length, tokens, ...(more ? { breakdown: more } : {}) };
  } finally {
    spawnSync(process.execPath, [BIN, 'down'], { env, encoding: 'utf8' });
    rmSync(musterHome, { recursive: true, force: true });
  }
}

const fmt = (xs: number[]): string => `min ${Math.min(...xs).toFixed(0)} / median ${median(xs).toFixed(0)} ms`;

async function bench(harness: Harness, cc: Ccusage): Promise<boolean> {
  const dir = join(tmp, `${harness}-home`);
  const empty = join(tmp, `${harness}-empty`);
  makeEmptyHome(harness, empty);
  const t0 = performance.now();
  const corpus = generatePeerCorpus(harness, dir, TOTAL_MB * MiB, FILES);
  console.log(`\n${harness}: ${corpus.what}, ${(corpus.bytes / MiB).toFixed(0)} MiB, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // Warm-up (page cache, both binaries), untimed.
  runCcusage(cc, harness, harnessEnv(harness, dir));
  await runMuster(harness, dir);
  const t = { ccFull: [] as number[], ccEmpty: [] as number[], mFull: [] as number[], mEmpty: [] as number[], mUp: [] as number[] };
  let ok = true;
  let last: { cc: ReturnType<typeof runCcusage>; m: MusterRun } | null = null;
  for (let i = 0; i < RUNS; i++) {
    const c = runCcusage(cc, harness, harnessEnv(harness, dir));
    const m = await runMuster(harness, dir);
    t.ccFull.push(c.ms);
    t.mFull.push(m.ms);
    t.mUp.push(m.upMs);
    t.ccEmpty.push(runCcusage(cc, harness, harnessEnv(harness, empty)).ms);
    t.mEmpty.push((await runMuster(harness, empty)).ms);
    // ccusage's own grouping lists fewer rows than files (it leaves out sessions it finds no usage in
    // and merges some): only Muster's listing is held to the corpus.
    if (m.sessions !== corpus.sessions) {
      console.log(`  ERROR: run ${i}: Muster listed ${m.sessions} sessions of ${corpus.sessions}`);
      ok = false;
    }
    last = { cc: c, m };
  }
  const ccT = median(t.ccFull) - median(t.ccEmpty);
  const mT = median(t.mFull) - median(t.mEmpty);
  console.log(`  ccusage ${cc.version}, whole:        ${fmt(t.ccFull)}   empty home: ${fmt(t.ccEmpty)}`);
  console.log(`  Muster,  whole (up → full ls): ${fmt(t.mFull)}   empty home: ${fmt(t.mEmpty)}   (of which \`muster up\`: ${fmt(t.mUp)})`);
  console.log(`  whole time       Muster/ccusage: ${(median(t.mFull) / median(t.ccFull)).toFixed(2)}`);
  console.log(`  transcripts only Muster/ccusage: ${(mT / ccT).toFixed(2)}  (${mT.toFixed(0)} ms vs ${ccT.toFixed(0)} ms; target <= 1.0)`);
  // A sign that both read the bytes, not an oracle (test/harness/usage-oracle.test.ts is): for Codex
  // the measures differ — Muster's session tokens are the thread's last running total without cache
  // reads (the generated corpus's totals are not cumulative), ccusage sums each request with them.
  if (last) console.log(`  sessions listed: Muster ${last.m.sessions}, ccusage ${last.cc.sessions}; tokens in/out: Muster ${last.m.tokens.input}/${last.m.tokens.output}, ccusage ${last.cc.tokens.input}/${last.cc.tokens.output}`);
  await printBreakdown(harness, dir, corpus.bytes);
  rmSync(dir, { recursive: true, force: true });
  return ok;
}

/** Where Muster's time goes: one more cold run read per thread, and the fold alone (corpus/cold-breakdown.ts). */
async function printBreakdown(harness: Harness, dir: string, bytes: number): Promise<void> {
  const b = (await runMuster(harness, dir, true)).breakdown;
  const ms = (x: number): string => `${x.toFixed(0)} ms`;
  console.log('  where Muster\'s time goes (one more cold run, untimed; CPU per thread from /proc until `ls` answered):');
  const threads = (c: ThreadCpu): string => `daemon's thread ${ms(c.daemon)}, index workers ${ms(c.index)} (${c.indexThreads} threads), search thread ${ms(c.search)}, other threads (V8's compiler and GC, libuv) ${ms(c.other)}`;
  if (b?.cpu) console.log(`    until \`ls\` answered (the index over): ${threads(b.cpu)}; the process ${ms(b.cpu.total)} of CPU in ${ms(b.indexMs)} from the spawn of \`up\``);
  if (b?.after) console.log(`    then until the daemon was quiet (its writes; the second pass): ${threads(b.after)}; the process ${ms(b.after.total)} of CPU; quiet (${QUIET_SPELLS} 100 ms spells without CPU) ${ms(b.quietMs)} after the spawn of \`up\``);
  if (b) console.log(`    \`muster ls\` (started right after \`up\`, so it waited for the index): ${ms(b.lsMs)}; again once the daemon's writes were done: ${ms(b.lsQuietMs)}`);
  const alone = foldAloneMs(harness, dir, false);
  const withMessages = foldAloneMs(harness, dir, true);
  const second = harness === 'opencode' ? 'the conversations for search' : 'search\'s messages and the usage records';
  console.log(`    the fold alone, one warm thread in this process: the first pass ${ms(alone)} (${(bytes / MiB / (alone / 1000)).toFixed(0)} MiB/s); the second (${second}) ${ms(withMessages)}`);
}

async function main(): Promise<number> {
  const load0 = loadavg();
  const cc = installCcusage(join(tmp, 'ccusage'));
  console.log(`ccusage ${cc.version} installed into a temporary directory (native binary ${cc.bin.split('node_modules/')[1]})`);
  let ok = true;
  for (const h of HARNESSES) ok = (await bench(h, cc)) && ok;
  const load1 = loadavg();
  console.log(`\nload average (1/5/15 min): ${load0.map((x) => x.toFixed(2)).join(' ')} at start, ${load1.map((x) => x.toFixed(2)).join(' ')} at end; ${RUNS} runs each`);
  return ok ? 0 : 1;
}

process.exitCode = await main();
