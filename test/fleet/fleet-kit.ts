/**
 * Fleet tier kit: hosts are real daemons (`muster serve`, built CLI) on this machine, each with its own
 * MUSTER_HOME, HOME and Claude home, joined to one throwaway PostgreSQL cluster (pg-cluster.ts) under
 * their own names — three of them stand for three machines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, envFor, runCli, splitBoardUrl, tempHome, waitExit, type CliResult } from '../e2e/kit.ts';
import { openSse, type SseReader } from '../e2e/pager-kit.ts';

export interface Host {
  name: string;
  home: string;
  claudeHome: string;
  env: NodeJS.ProcessEnv;
  child: ChildProcess;
  base: string;
  token: string;
  /** Everything the daemon wrote on stdout and stderr (checked for secrets). */
  output(): string;
  cli(args: string[], opts?: { timeoutMs?: number; input?: string }): Promise<CliResult>;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> & { error?: { code: string; message: string; host?: string } } }>;
  sse(): Promise<SseReader>;
  /** SIGTERM, and wait. */
  stop(): Promise<void>;
  /** kill -9, and wait. */
  kill(): Promise<void>;
  /** Starts the daemon again in the same home (it rejoins from fleet.json). */
  restart(): Promise<void>;
  cleanup(): void;
}

function serve(env: NodeJS.ProcessEnv, sink: (s: string) => void): Promise<{ child: ChildProcess; boardUrl: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000);
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
      sink(d.toString());
    });
    child.stdout!.on('data', (d: Buffer) => {
      sink(d.toString());
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ok":true'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, boardUrl: (JSON.parse(line) as { boardUrl: string }).boardUrl });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${out}`));
    });
  });
}

/** Starts a daemon in a fresh home; `join` (a URL) joins it to the fleet under `name`. */
export async function startHost(name: string, opts: { join?: string; settings?: Record<string, unknown>; env?: NodeJS.ProcessEnv } = {}): Promise<Host> {
  const t = tempHome(`muster-fleet-${name.toLowerCase()}-`);
  const claudeHome = join(t.home, '.claude');
  mkdirSync(claudeHome, { recursive: true });
  const env = envFor(t.home, opts.env ?? {});
  let output = '';
  const sink = (s: string) => void (output += s);
  let s = await serve(env, sink);
  const host: Host = {
    name, home: t.home, claudeHome, env, child: s.child, ...splitBoardUrl(s.boardUrl),
    output: () => output,
    cli: (args, o) => runCli(args, env, o),
    async api(method, path, body) {
      const r = await fetch(`${host.base}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${host.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    sse: () => openSse(host),
    async stop() {
      if (host.child.exitCode !== null || host.child.signalCode !== null) return;
      host.child.kill('SIGTERM');
      await waitExit(host.child, 20_000);
    },
    async kill() {
      host.child.kill('SIGKILL');
      await waitExit(host.child);
    },
    async restart() {
      s = await serve(env, sink);
      host.child = s.child;
      Object.assign(host, splitBoardUrl(s.boardUrl));
    },
    cleanup: () => t.cleanup(),
  };
  const r = await host.api('POST', '/settings', { notifyDesktop: false, ...(opts.settings ?? {}) });
  if (r.status !== 200) throw new Error(`settings refused: ${JSON.stringify(r.json)}`);
  if (opts.join) {
    const j = await host.cli(['fleet', 'join', opts.join, '--name', name], { timeoutMs: 30_000 });
    if (j.code !== 0) throw new Error(`${name} could not join: ${j.stderr}`);
  }
  return host;
}
