/**
 * A real Muster daemon for the real-harness tier: the BUILT CLI (`muster serve --port 0`, so
 * `npm run build` first) with its own MUSTER_HOME, reading exactly the isolated harness homes that
 * `harnessEnv` made (CLAUDE_CONFIG_DIR, PI_CODING_AGENT_DIR, HOME for omp's ~/.omp, XDG_DATA_HOME for
 * OpenCode, CODEX_HOME). Tests assert what `muster ls --json` reports, as the issues ask; the API
 * (diagnostics, SSE) is used only for what ls cannot show.
 *
 * The build runs from a private copy of dist/ taken once per test process: other engineers (and CI
 * steps) rebuild dist/ in place, deleting it first, and a CLI started mid-rebuild misses its chunks.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitBoardUrl, waitExit } from '../../e2e/kit.ts';
import type { CliResult as MusterResult } from '../../e2e/kit.ts';
import type { HarnessEnv } from './harness-env.ts';
import type { SourceDiagnostics } from '../../../src/discovery/contract.ts';
import type { Harness, Session } from '../../../src/core/session.ts';

export interface HarnessDaemonOptions {
  /**
   * The harness environments whose homes the daemon reads. Several must come from the same
   * `harnessEnv` root (one HOME): a daemon has one HOME and one value per variable.
   */
  homes: HarnessEnv[];
  /** Temp dir owned by the test; MUSTER_HOME is `<root>/muster-home`. */
  root: string;
  /** Extra variables for the daemon and its commands (e.g. MUSTER_TMUX_SOCKET), merged last. */
  env?: NodeJS.ProcessEnv;
}

/** One server-sent event as received. */
export interface DaemonEvent {
  type: string;
  data: Record<string, unknown>;
  /** ms since epoch when the test process parsed it. */
  at: number;
}

export interface EventStream {
  readonly events: readonly DaemonEvent[];
  /** Resolves with the first event (already received or arriving) that matches; rejects after `timeoutMs`. */
  waitFor(what: string, predicate: (e: DaemonEvent) => boolean, timeoutMs: number): Promise<DaemonEvent>;
  close(): void;
}

export interface HarnessDaemon {
  /** Environment for `muster` commands against this daemon. */
  readonly env: NodeJS.ProcessEnv;
  readonly pid: number;
  /** The daemon's base URL and token, for direct API calls. */
  readonly api: { base: string; token: string };
  /** Runs `muster <args>` (the built CLI) against this daemon. */
  muster(args: string[]): Promise<MusterResult>;
  /** `muster ls --json`: the sessions it reports. Throws if the command fails. */
  listSessions(): Promise<Session[]>;
  /** Polls `muster ls --json` until one session matches; rejects with the last listing after `timeoutMs` (default 30 s). */
  waitFor(predicate: (s: Session) => boolean, timeoutMs?: number, what?: string): Promise<Session>;
  /** Polls `muster ls --json` until the whole listing matches; resolves with it. */
  waitForList(predicate: (list: Session[]) => boolean, timeoutMs?: number, what?: string): Promise<Session[]>;
  /** GET /api/diagnostics for one harness (stale registry files and skip counters ls cannot show). */
  diagnostics(harness: Harness): Promise<SourceDiagnostics>;
  /** Opens GET /api/events; resolves once the daemon's hello arrived, so later changes are not missed. */
  events(): Promise<EventStream>;
  /** SIGTERM, then SIGKILL after 10 s. Idempotent. */
  close(): Promise<void>;
}

/** Variables through which harnessEnv points at its isolated homes (and the daemon reads them). */
const HOME_VARS = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'CLAUDE_CONFIG_DIR', 'PI_CODING_AGENT_DIR', 'CODEX_HOME'];
/** Taken from the test's own environment; nothing else leaks in (no real MUSTER_*, TMUX or harness homes). */
const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR'];
/** Poll interval of waitFor, ms. Each poll is a CLI process, so not tighter. */
const POLL_MS = 150;

/** The daemon's environment: own MUSTER_HOME, the harness homes, no other state of the machine. */
export function daemonEnv(options: HarnessDaemonOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of INHERITED) if (process.env[k] !== undefined) env[k] = process.env[k];
  for (const h of options.homes) {
    for (const k of HOME_VARS) {
      const v = h.env[k];
      if (v === undefined) continue;
      if (env[k] !== undefined && env[k] !== v) throw new Error(`harness homes disagree on ${k} (${env[k]} vs ${v}): build them on one root`);
      env[k] = v;
    }
  }
  const musterHome = path.join(options.root, 'muster-home');
  fs.mkdirSync(musterHome, { recursive: true, mode: 0o700 });
  return { ...env, MUSTER_HOME: musterHome, MUSTER_PORT: '0', ...options.env };
}

export async function startHarnessDaemon(options: HarnessDaemonOptions): Promise<HarnessDaemon> {
  const cliJs = await builtCli();
  const env = daemonEnv(options);
  const { child, envelope } = await serve(cliJs, env);
  const { base, token } = splitBoardUrl(envelope.boardUrl);
  const streams = new Set<EventStream>();

  const muster = (args: string[]): Promise<MusterResult> => runMuster(cliJs, args, env);

  async function listSessions(): Promise<Session[]> {
    const r = await muster(['ls', '--json']);
    if (r.code !== 0 || !r.json.ok) throw new Error(`muster ls --json failed (${r.code}): ${r.stderr}`);
    return r.json['sessions'] as Session[];
  }

  async function waitForList(predicate: (list: Session[]) => boolean, timeoutMs = 30_000, what = 'listing'): Promise<Session[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = await listSessions();
      if (predicate(list)) return list;
      if (Date.now() > deadline) throw new Error(`${what}: not seen by muster ls within ${timeoutMs} ms; sessions: ${JSON.stringify(list, null, 1)}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  async function waitFor(predicate: (s: Session) => boolean, timeoutMs = 30_000, what = 'session'): Promise<Session> {
    const list = await waitForList((l) => l.some(predicate), timeoutMs, what);
    return list.find(predicate)!;
  }

  async function diagnostics(harness: Harness): Promise<SourceDiagnostics> {
    const r = await fetch(`${base}/api/diagnostics`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
    const body = (await r.json()) as { sources?: SourceDiagnostics[] };
    const d = body.sources?.find((s) => s.harness === harness);
    if (!r.ok || !d) throw new Error(`GET /api/diagnostics: ${r.status} ${JSON.stringify(body)}`);
    return d;
  }

  async function events(): Promise<EventStream> {
    const s = await openEvents(base, token);
    streams.add(s);
    return s;
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      for (const s of streams) s.close();
      child.kill('SIGTERM');
      try {
        await waitExit(child, 10_000);
      } catch {
        child.kill('SIGKILL');
        await waitExit(child, 5_000).catch(() => undefined);
      }
    })());

  return { env, pid: envelope.pid, api: { base, token }, muster, listSessions, waitFor, waitForList, diagnostics, events, close };
}

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
/** How long to wait for an in-progress rebuild of dist/ to finish, ms. */
const BUILD_WAIT_MS = 300_000;
let snapshot: Promise<string> | undefined;

/** Relative imports of a bundle file (`from "./chunks/x.js"`, `import("./y.js")`). */
const IMPORTS = /(?:from|import\()\s*["'](\.\.?\/[^"']+\.js)["']/g;

/** Whether every file the bundle imports, transitively, is present (a copy taken mid-build is not). */
function complete(entry: string): boolean {
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return false;
    }
    for (const m of text.matchAll(IMPORTS)) pending.push(path.resolve(path.dirname(file), m[1]!));
  }
  return true;
}

/**
 * Path of cli.js in this process's copy of dist/ (without the board's web/ files, which the daemon
 * tolerates missing). The copy lives in the repo's .cache so `hono` & co. resolve from node_modules.
 */
function builtCli(): Promise<string> {
  return (snapshot ??= (async () => {
    const deadline = Date.now() + BUILD_WAIT_MS;
    const dist = path.join(REPO, 'dist');
    const copies: string[] = [];
    process.once('exit', () => { for (const c of copies) fs.rmSync(c, { recursive: true, force: true }); });
    for (let attempt = 0; ; attempt++) {
      const dir = path.join(REPO, '.cache', 'muster-dist', `${process.pid}-${attempt}`);
      const cliJs = path.join(dir, 'cli.js');
      try {
        fs.cpSync(dist, dir, { recursive: true, filter: (src) => src !== path.join(dist, 'web') });
      } catch { /* dist/ vanished mid-copy: a rebuild is running */ }
      copies.push(dir);
      if (complete(cliJs)) return cliJs;
      fs.rmSync(dir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('dist/ is missing or incomplete: run `npm run build` first');
      await new Promise((r) => setTimeout(r, 2000));
    }
  })());
}

/** `muster serve --port 0 --quiet` in the foreground; resolves with its envelope once printed. */
function serve(cliJs: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; envelope: { boardUrl: string; pid: number } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliJs, 'serve', '--port', '0', '--quiet'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`muster serve did not start within 60 s: ${err}`));
    }, 60_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line === undefined || !out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ child, envelope: JSON.parse(line) as { boardUrl: string; pid: number } });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`muster serve exited ${code}: ${err}`));
    });
  });
}

/** `muster <args>`; the JSON envelope from stdout (success) or stderr (failure), parsed. */
function runMuster(cliJs: string, args: string[], env: NodeJS.ProcessEnv): Promise<MusterResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliJs, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const text = (code === 0 ? stdout : stderr).trim().split('\n').filter((l) => l.startsWith('{')).at(-1) ?? '{}';
      let json: MusterResult['json'];
      try {
        json = JSON.parse(text) as MusterResult['json'];
      } catch {
        json = { ok: false, error: { code: 'unparseable', message: text } };
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

/** SSE client over node:http (fetch bodies are awkward to abort mid-stream in Node 20). */
function openEvents(base: string, token: string): Promise<EventStream> {
  const events: DaemonEvent[] = [];
  const listeners = new Set<(e: DaemonEvent) => void>();
  let buf = '';
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET /api/events: ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        // Blocks end with a blank line; `event:` and `data:` lines inside (comments are heartbeats).
        for (let end = buf.indexOf('\n\n'); end !== -1; end = buf.indexOf('\n\n')) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const type = /^event: ?(.*)$/m.exec(block)?.[1];
          const data = /^data: ?(.*)$/m.exec(block)?.[1];
          if (type === undefined || data === undefined) continue;
          const e: DaemonEvent = { type, data: JSON.parse(data) as Record<string, unknown>, at: Date.now() };
          events.push(e);
          for (const l of listeners) l(e);
          if (type === 'daemon.hello') resolve(stream);
        }
      });
    });
    req.on('error', reject);
    req.end();
    const stream: EventStream = {
      events,
      waitFor(what, predicate, timeoutMs) {
        const seen = events.find(predicate);
        if (seen) return Promise.resolve(seen);
        return new Promise((res, rej) => {
          const t = setTimeout(() => {
            listeners.delete(on);
            rej(new Error(`${what}: no such event within ${timeoutMs} ms; got ${JSON.stringify(events.map((x) => [x.type, x.data['id'], x.data['status'], x.data['live']]))}`));
          }, timeoutMs);
          const on = (e: DaemonEvent): void => {
            if (!predicate(e)) return;
            clearTimeout(t);
            listeners.delete(on);
            res(e);
          };
          listeners.add(on);
        });
      },
      close: () => req.destroy(),
    };
  });
}
