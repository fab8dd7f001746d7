/**
 * How the CLI finds the daemon: read the lock record (distrusting it), confirm the service identity
 * over GET /api/health, and only then use its endpoints with the token from MUSTER_HOME.
 * `ensureDaemon` starts one in the background when none is usable: only commands a person runs to
 * use Muster call it (never status or down, nor the wrapper's exit path, hooks or extensions).
 */
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { openSync, closeSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MusterError } from '../errors/index.ts';
import { readLock, type LockRecord } from '../daemon/lock/index.ts';
import { buildIdentity, type BuildIdentity } from '../daemon/identity.ts';
import { readToken, resolvePaths, type MusterPaths } from '../daemon/paths.ts';
import { httpInto, httpJson, parseBody } from './http.ts';
import { READY_FD_ENV } from './ready-signal.ts';

export type DaemonLocation =
  | { state: 'running'; record: LockRecord; urls: { board: string; api: string; mcp: string }; token: string | null }
  | { state: 'starting'; record: LockRecord }
  | { state: 'foreign'; record: LockRecord }
  | { state: 'stopped'; staleRecord: boolean };

export interface ClientContext {
  env: NodeJS.ProcessEnv;
  paths: MusterPaths;
  identity: BuildIdentity;
}

export function clientContext(env: NodeJS.ProcessEnv = process.env): ClientContext {
  return { env, paths: resolvePaths(env), identity: buildIdentity(env) };
}

async function healthMatches(api: string, record: LockRecord): Promise<boolean> {
  try {
    const r = await httpJson(`${api}/health`, { timeoutMs: 2000 });
    const b = r.body as { service?: string; pid?: number; buildId?: string } | null;
    return r.status === 200 && b?.service === 'muster' && b.pid === record.pid && b.buildId === record.buildId;
  } catch {
    return false;
  }
}

/**
 * `trustedPid`: a daemon this process started and that reported ready on its pipe; its record is
 * believed without the health round trip (the first request to a fresh daemon is its slowest).
 */
export async function locateDaemon(ctx: ClientContext, trustedPid?: number): Promise<DaemonLocation> {
  const reading = readLock(ctx.paths.lock, ctx.identity);
  if (reading.state !== 'record') return { state: 'stopped', staleRecord: reading.state === 'invalid' };
  const { record } = reading;
  if (!reading.alive) return { state: 'stopped', staleRecord: true };
  if (!reading.current) return { state: 'foreign', record };
  if (!reading.usable || !record.endpoints) return { state: 'starting', record };
  if (record.pid !== trustedPid && !(await healthMatches(record.endpoints.api, record))) return { state: 'starting', record };
  return { state: 'running', record, urls: record.endpoints, token: readToken(ctx.paths.token) };
}

/**
 * The board URL with its token. The daemon rewrites a missing or malformed token file when it
 * starts, so one that reads as no token now was changed since: never print `?token=` empty.
 */
export function boardUrlOf(ctx: ClientContext, loc: DaemonLocation & { state: 'running' }): string {
  if (!loc.token) throw new MusterError('daemon_unreachable', `the token at ${ctx.paths.token} is missing or malformed; run \`muster down\` then \`muster up\` to write a new one`);
  return `${loc.urls.board}?token=${loc.token}`;
}

export function foreignError(record: LockRecord): MusterError {
  return new MusterError(
    'owned_by_other_build',
    `the store is owned by pid ${record.pid} running ${record.buildId}; run \`muster down\` to stop it, then retry`,
    { details: { pid: record.pid, buildId: record.buildId } },
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Node's arguments and the script to re-run for a background daemon: the CLI entry this process started from. */
function cliEntry(): string[] {
  const entry = process.argv[1];
  if (!entry) throw new MusterError('daemon_start_failed', 'cannot tell which muster entry point to start');
  return [...process.execArgv, entry];
}

export interface StartOptions {
  port?: number;
  /** How long to wait for the new daemon to be ready. Default: 30 s (a loaded machine with a large index). */
  timeoutMs?: number;
}

/** Starts a background daemon and waits until its lock record is published and healthy. */
export async function startDaemon(ctx: ClientContext, opts: StartOptions = {}): Promise<DaemonLocation & { state: 'running' }> {
  mkdirSync(ctx.paths.logs, { recursive: true, mode: 0o700 });
  const logPath = join(ctx.paths.logs, 'daemon.log');
  const out = openSync(logPath, 'a', 0o600);
  const args = [...cliEntry(), 'serve', '--quiet'];
  if (opts.port !== undefined) args.push('--port', String(opts.port));
  // fd 3 is a pipe on which the daemon writes one line once it serves (serve.ts); polling the lock
  // record stays the fallback (e.g. another CLI's daemon won the race and ours exited).
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', out, out, 'pipe'], env: { ...ctx.env, [READY_FD_ENV]: '3' } });
  closeSync(out);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  child.unref();
  const pipe = child.stdio[3] as Socket | null;
  let wake: () => void = () => {};
  let readyPid: number | undefined;
  pipe?.on('data', () => {
    readyPid = child.pid;
    wake();
  });
  pipe?.on('error', () => {});
  pipe?.unref();
  try {
    const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
    while (Date.now() < deadline) {
      const loc = await locateDaemon(ctx, readyPid);
      if (loc.state === 'running') return loc;
      if (loc.state === 'foreign') throw foreignError(loc.record);
      if (exited !== null && loc.state === 'stopped') {
        throw new MusterError('daemon_start_failed', `the daemon exited (code ${exited}) before it was ready; see ${logPath}`);
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, 10);
        wake = () => { clearTimeout(t); r(); };
      });
    }
    throw new MusterError('daemon_start_failed', `the daemon did not become ready in time; see ${logPath}`);
  } finally {
    pipe?.destroy();
  }
}

/** The running daemon, started on demand. */
export async function ensureDaemon(ctx: ClientContext): Promise<DaemonLocation & { state: 'running' }> {
  for (let i = 0; i < 300; i++) {
    const loc = await locateDaemon(ctx);
    if (loc.state === 'running') return loc;
    if (loc.state === 'foreign') throw foreignError(loc.record);
    if (loc.state === 'stopped') return startDaemon(ctx);
    await sleep(20); // starting: another process is bringing it up
  }
  throw new MusterError('daemon_unreachable', 'the daemon is starting but never became ready; check `muster status` and the log in MUSTER_HOME/logs');
}

/** A daemon's non-2xx answer as the MusterError its envelope names (its code and message, and the status). */
export function answerError(status: number, body: unknown): MusterError {
  const e = (body as { error?: { code?: string; message?: string } & Record<string, unknown> } | null)?.error;
  const code = (e?.code ?? 'internal') as ConstructorParameters<typeof MusterError>[0];
  // Facts beside the code and message (the host of a fleet answer, the command to run there) stay in the envelope.
  const { code: _c, message: _m, ...details } = e ?? {};
  return new MusterError(code, e?.message ?? `daemon answered ${status}`, { status, ...(Object.keys(details).length > 0 ? { details } : {}) });
}

/** The answer's body when 2xx, else the daemon's error thrown as a MusterError. */
export function answerBody(r: { status: number; body: unknown }): Record<string, unknown> {
  if (r.status >= 200 && r.status < 300) return (r.body ?? {}) as Record<string, unknown>;
  throw answerError(r.status, r.body);
}

/** Calls the daemon's API, starting one if needed; a non-2xx answer becomes the daemon's own error as a MusterError. */
export async function callApi(ctx: ClientContext, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const loc = await ensureDaemon(ctx);
  return answerBody(await httpJson(`${loc.urls.api}${path}`, { method, token: loc.token, body, timeoutMs: 30_000 }));
}

/**
 * callApi for paths no person waits on (the wrapper reporting its harness's pid and exit code): the
 * running daemon only, never one started for it — after `muster down` it stays down, and a deleted
 * MUSTER_HOME is not created again. Resolves to null when no daemon of this build is running.
 */
export async function callRunningApi(ctx: ClientContext, method: string, path: string, body?: unknown): Promise<Record<string, unknown> | null> {
  const loc = await locateDaemon(ctx);
  if (loc.state !== 'running') return null;
  return answerBody(await httpJson(`${loc.urls.api}${path}`, { method, token: loc.token, body, timeoutMs: 30_000 }));
}

/**
 * callApi without parsing a 2xx answer: its bytes, which are already a `{ ok: true, … }` envelope, go
 * to `out` as they arrive, so a command can print them as they are (10,000 sessions are megabytes:
 * collecting, parsing and re-serialising them cost more than the request). A non-2xx answer is still
 * the daemon's error as a MusterError, and nothing is written.
 */
export async function callApiInto(ctx: ClientContext, method: string, path: string, out: NodeJS.WritableStream): Promise<void> {
  const loc = await ensureDaemon(ctx);
  const r = await httpInto(`${loc.urls.api}${path}`, { method, token: loc.token, timeoutMs: 30_000 }, out);
  if (r.raw !== null) throw answerError(r.status, parseBody(r.raw));
}
