/**
 * ccusage, the peer the cold-start benchmark measures Muster against: installed with npm into a
 * temporary directory (never a dependency of this package) at a pinned version, and run as its native
 * binary (the npm `ccusage` command is a small Node launcher of that binary; timing the binary itself
 * leaves the launcher's start out of ccusage's figures).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest version whose native linux-x64 package is published (20.0.26's was not, when pinned). */
export const CCUSAGE_VERSION = process.env.CCUSAGE_VERSION ?? '20.0.24';

export interface Ccusage {
  version: string;
  /** The native binary. */
  bin: string;
}

/** `npm install --prefix <dir> ccusage@<version>`; throws with npm's output when it fails. */
export function installCcusage(dir: string, version = CCUSAGE_VERSION): Ccusage {
  const r = spawnSync('npm', ['install', '--prefix', dir, `ccusage@${version}`, '--no-audit', '--no-fund', '--no-save', '--loglevel=error'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm install ccusage@${version} failed: ${r.stderr || r.stdout}`);
  const pkg = `@ccusage/ccusage-${process.platform}-${process.arch}`;
  const bin = join(dir, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'ccusage.exe' : 'ccusage');
  if (!existsSync(bin)) throw new Error(`ccusage@${version} has no native binary for ${process.platform}-${process.arch} (${pkg})`);
  // npm leaves it without the executable bit; ccusage's launcher sets it on first run, as here.
  if ((statSync(bin).mode & 0o111) === 0) chmodSync(bin, 0o755);
  return { version, bin };
}

export interface CcusageRun {
  ms: number;
  sessions: number;
  /** Input + output tokens over every session (a check that both tools read the same bytes). */
  tokens: { input: number; output: number };
}

/**
 * `ccusage <harness> session --json --offline` over `env`'s home; the wall time from spawn to exit.
 * A home without sessions makes ccusage exit non-zero with "no data": that is its empty start.
 */
export function runCcusage(c: Ccusage, harness: 'claude' | 'codex' | 'pi' | 'opencode', env: NodeJS.ProcessEnv): CcusageRun {
  const t0 = performance.now();
  const r = spawnSync(c.bin, [harness, 'session', '--json', '--offline'], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  let sessions = 0;
  const tokens = { input: 0, output: 0 };
  if (r.status === 0) {
    const body = JSON.parse(r.stdout) as { sessions?: { inputTokens?: number; outputTokens?: number }[] };
    for (const s of body.sessions ?? []) {
      sessions++;
      tokens.input += s.inputTokens ?? 0;
      tokens.output += s.outputTokens ?? 0;
    }
  }
  else if (r.error) throw r.error;
  return { ms, sessions, tokens };
}
