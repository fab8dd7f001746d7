/**
 * Installs the pinned harness CLIs from npm into a cache outside the package's dependencies:
 * `${MUSTER_HARNESS_CACHE:-<repo>/.cache/harness-clis}/<name>@<version>`. Idempotent (a marker file
 * written after success) and safe under concurrency (an in-process promise per harness plus a
 * cross-process directory lock). Run `node --import tsx test/harness/kit/install.ts` to install all.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { acquireDirLock } from './dir-lock.ts';
import { HARNESS_NAMES, PINNED } from './pinned.ts';
import type { HarnessName } from './pinned.ts';

export interface HarnessCli {
  /** Absolute path of the command (`node_modules/.bin/<bin>`). */
  bin: string;
  /** Directory holding the bin; put it first on PATH (omp needs `bun` from here). */
  binDir: string;
  /** The pinned version installed. */
  version: string;
}

export interface EnsureOptions {
  /** Cache root. Default: `$MUSTER_HARNESS_CACHE`, else `<repo>/.cache/harness-clis`. */
  cacheDir?: string;
  /** Where npm's output goes. Default: a log file `<name>@<version>.install.log` in the cache. */
  log?: (line: string) => void;
  /** npm command to run. Default: `npm` from PATH (tests pass a stand-in). */
  npm?: string;
}

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MARKER = '.muster-installed.json';

export function harnessCacheDir(): string {
  return process.env['MUSTER_HARNESS_CACHE'] || path.join(REPO_ROOT, '.cache', 'harness-clis');
}

const inFlight = new Map<string, Promise<HarnessCli>>();

/** Installs `name` at its pinned version unless already installed; returns where its bin is. */
export function ensureHarnessCli(name: HarnessName, options: EnsureOptions = {}): Promise<HarnessCli> {
  const pin = PINNED[name];
  const prefix = path.join(options.cacheDir ?? harnessCacheDir(), `${name}@${pin.version}`);
  let pending = inFlight.get(prefix);
  if (!pending) {
    pending = installOnce(name, prefix, options);
    inFlight.set(prefix, pending);
    // A failed install may be retried by a later call.
    pending.catch(() => inFlight.delete(prefix));
  }
  return pending;
}

function result(name: HarnessName, prefix: string): HarnessCli {
  const binDir = path.join(prefix, 'node_modules', '.bin');
  return { bin: path.join(binDir, PINNED[name].bin), binDir, version: PINNED[name].version };
}

async function installOnce(name: HarnessName, prefix: string, options: EnsureOptions): Promise<HarnessCli> {
  const marker = path.join(prefix, MARKER);
  if (fs.existsSync(marker)) return result(name, prefix);
  const release = await acquireDirLock(`${prefix}.lock`);
  try {
    // Another process may have finished while this one waited for the lock.
    if (fs.existsSync(marker)) return result(name, prefix);
    // A prefix without a marker is a partial install (killed mid-way): start clean.
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.mkdirSync(prefix, { recursive: true });
    const pin = PINNED[name];
    // npm 11 rejects `--allow-scripts` when the prefix is a project (EALLOWSCRIPTS), so the policy
    // goes in a throwaway package.json of the prefix, which --no-save leaves untouched.
    const manifest = { name: `muster-harness-${name}`, private: true, allowScripts: Object.fromEntries(pin.allowScripts.map((p) => [p, true])) };
    fs.writeFileSync(path.join(prefix, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    const args = ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=warn', ...pin.specs];
    const logFile = `${prefix}.install.log`;
    const log = options.log ?? ((line: string) => fs.appendFileSync(logFile, line));
    log(`$ npm ${args.join(' ')}\n`);
    await runNpm(options.npm ?? 'npm', args, prefix, log);
    const cli = result(name, prefix);
    if (!fs.existsSync(cli.bin)) throw new Error(`npm install of ${name} finished but ${cli.bin} is missing`);
    fs.writeFileSync(marker, JSON.stringify({ name, version: pin.version, specs: pin.specs, at: new Date().toISOString() }) + '\n');
    return cli;
  } finally {
    release();
  }
}

function runNpm(npm: string, args: string[], cwd: string, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    // cwd = the prefix so the repo's package.json and .npmrc never scope this install.
    const child = spawn(npm, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
    child.stdout.on('data', (d: Buffer) => log(d.toString()));
    child.stderr.on('data', (d: Buffer) => log(d.toString()));
    // Bound it: a hung registry must not hang CI forever. 30 minutes covers a cold ~1 GB download.
    const timer = setTimeout(() => child.kill('SIGTERM'), 30 * 60_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`npm ${args.join(' ')} failed (${signal ?? `exit ${code}`}); see the install log`));
    });
  });
}

/** Installs every pinned harness, one after another (they are large; parallel downloads gain little). */
export async function installAll(options: EnsureOptions = {}): Promise<Record<HarnessName, HarnessCli>> {
  const out: Partial<Record<HarnessName, HarnessCli>> = {};
  for (const name of HARNESS_NAMES) out[name] = await ensureHarnessCli(name, options);
  return out as Record<HarnessName, HarnessCli>;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  installAll({ log: (line) => process.stderr.write(line) }).then(
    (all) => {
      for (const [name, cli] of Object.entries(all)) process.stdout.write(`${name} ${cli.version} ${cli.bin}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`install failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
