/**
 * Browser tier kit: a real daemon (`muster serve`, built CLI) in a temp MUSTER_HOME with a fake
 * Claude home, driven by Debian's chromium through playwright-core. Every request the page makes is
 * recorded so a test can assert none left 127.0.0.1. Screenshots go to test-results/ (gitignored).
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envFor, REPO, splitBoardUrl, startServe, tempHome, waitExit } from '../e2e/kit.ts';
import { cwdToSlug } from '../../src/harnesses/claude/discovery/slug.ts';
import { assistantLine, registryJson, userLine } from '../../src/harnesses/claude/discovery/claude-fixtures.test-support.ts';

export const CHROMIUM = process.env.MUSTER_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = join(REPO, 'test-results', 'browser');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface BoardRig {
  home: string;
  claudeHome: string;
  boardUrl: string;
  base: string;
  token: string;
  child: ChildProcess;
  /** Every URL the browser requested (including attempts the page's CSP stopped before the network). */
  requests: string[];
  /** URLs the page's CSP refused: they never left the browser. */
  blocked: string[];
  context: BrowserContext;
  page: Page;
  stop(): Promise<void>;
}

/** A process that Muster's Claude source recognises as Claude Code (argv[0] is `claude`). */
export function spawnFakeClaude(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); process.on("SIGTERM", () => process.exit(0))'], { argv0: 'claude', stdio: 'ignore' });
}

/** /proc/<pid>/stat field 22 (start time in clock ticks), as Claude records it in `procStart`. */
export function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

export interface FakeSession { id: string; cwd: string; title: string; pid?: number; status?: string; waitingFor?: string; ts?: string }

/** Writes a Claude transcript (and, for a live one, its registry entry) into `claudeHome`. */
export function writeClaudeSession(claudeHome: string, s: FakeSession): void {
  const dir = join(claudeHome, 'projects', cwdToSlug(s.cwd));
  mkdirSync(dir, { recursive: true });
  const ts = s.ts ?? new Date().toISOString();
  const lines = [userLine(s.title, { sessionId: s.id, cwd: s.cwd, ts }), assistantLine({ id: `m-${s.id.slice(0, 8)}`, sessionId: s.id, cwd: s.cwd, ts, output: 1200, input: 5000 })];
  writeFileSync(join(dir, `${s.id}.jsonl`), lines.map((l) => `${l}\n`).join(''));
  if (s.pid !== undefined) writeRegistry(claudeHome, s);
}

export function writeRegistry(claudeHome: string, s: FakeSession): void {
  if (s.pid === undefined) throw new Error('a live session needs a pid');
  mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
  const file = join(claudeHome, 'sessions', `${s.pid}.json`);
  // Write then rename, as a reader must never see half a record.
  writeFileSync(`${file}.tmp`, registryJson({ pid: s.pid, sessionId: s.id, cwd: s.cwd, procStart: startTicks(s.pid), status: s.status ?? 'idle', waitingFor: s.waitingFor, startedAt: Date.now() - 60_000 }));
  renameSync(`${file}.tmp`, file);
}

/** Debian's chromium in a fresh profile (the caller removes `profile` after closing the context). */
export async function launchBrowser(colorScheme: 'light' | 'dark' = 'light'): Promise<{ profile: string; context: BrowserContext }> {
  const profile = mkdtempSync(join(tmpdir(), 'muster-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    colorScheme,
    viewport: { width: 1400, height: 860 },
  });
  return { profile, context };
}

export async function startBoard(options: { colorScheme?: 'light' | 'dark'; prepare?(claudeHome: string): void; env?: NodeJS.ProcessEnv } = {}): Promise<BoardRig> {
  const t = tempHome('muster-browser-');
  const claudeHome = join(t.home, '.claude');
  mkdirSync(claudeHome, { recursive: true });
  options.prepare?.(claudeHome);
  // The browser first: it is the slow part on a loaded machine, and a daemon started before it would
  // have run for seconds (a paced cold index half over) before the page is opened.
  const { profile, context } = await launchBrowser(options.colorScheme);
  let served: Awaited<ReturnType<typeof startServe>>;
  try {
    served = await startServe(envFor(t.home, options.env ?? {}));
  } catch (e) {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    t.cleanup();
    throw e;
  }
  const { child, envelope } = served;
  const { base, token } = splitBoardUrl(envelope.boardUrl);
  const requests: string[] = [];
  const blocked: string[] = [];
  context.on('request', (r) => void requests.push(r.url()));
  context.on('requestfailed', (r) => void (r.failure()?.errorText === 'csp' && blocked.push(r.url())));
  const page = context.pages()[0] ?? (await context.newPage());
  let stopped = false;
  return {
    home: t.home, claudeHome, boardUrl: envelope.boardUrl, base, token, child, requests, blocked, context, page,
    async stop() {
      if (stopped) return;
      stopped = true;
      await context.close().catch(() => {});
      child.kill('SIGTERM');
      await waitExit(child).catch(() => child.kill('SIGKILL'));
      rmSync(profile, { recursive: true, force: true });
      t.cleanup();
    },
  };
}

/**
 * Requests that left for anywhere but the daemon on 127.0.0.1: data: and blob: stay in the page,
 * and an attempt the page's CSP refused never reaches the network (Excalidraw lists its CDN as a
 * font fallback; the CSP is what guarantees it is never contacted).
 */
export function foreignRequests(requests: string[], blocked: string[] = []): string[] {
  const stopped = new Set(blocked);
  return requests.filter((u) => !/^(data|blob):/.test(u) && new URL(u).hostname !== '127.0.0.1' && !stopped.has(u));
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * Polls a JavaScript expression in the page until it is truthy; returns its value. (Playwright's
 * waitForFunction with a string compiles it in the page, which our CSP — no 'unsafe-eval' — refuses;
 * page.evaluate goes through the debugger protocol instead.)
 */
export async function waitInPage<T = unknown>(page: Page, expression: string, timeoutMs = 5000, everyMs = 10): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = (await page.evaluate(expression)) as T;
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
