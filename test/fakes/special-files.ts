/**
 * Hostile entries for the "never block on a file" tests: a FIFO, a unix socket and a link to a
 * character device (/dev/zero never ends), placed where a source expects a file. A source that
 * opens such a FIFO blocking would freeze the test process itself, so `startFifoUnblocker` runs a
 * child that, after a delay, keeps opening and closing every FIFO under a root: a blocked open then
 * returns (late), and the test fails on time instead of hanging.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { basename, dirname } from 'node:path';

export type SpecialKind = 'fifo' | 'socket' | 'device';
export const SPECIAL_KINDS: readonly SpecialKind[] = ['fifo', 'socket', 'device'];

/** Creates `path` (and its parent directories) as a FIFO, a bound unix socket, or a link to /dev/zero. */
export function makeSpecialFile(path: string, kind: SpecialKind): void {
  mkdirSync(dirname(path), { recursive: true });
  if (kind === 'fifo') execFileSync('mkfifo', [path]);
  else if (kind === 'device') symlinkSync('/dev/zero', path);
  else {
    // A process that exits without closing its server leaves the socket file bound on disk. Bound by a
    // name relative to its directory: a socket address holds at most 107 bytes of path.
    const script = `require('net').createServer().listen(${JSON.stringify(basename(path))}, () => process.exit(0))`;
    execFileSync(process.execPath, ['-e', script], { cwd: dirname(path) });
  }
}

// Opening a FIFO O_RDWR never blocks (Linux) and counts as a writer, which wakes a reader stuck in open().
// The child ends by itself once its test process or its root is gone (a crashed test never calls stop).
const UNBLOCKER = `
const fs = require('fs'), path = require('path');
const [root, delay, parent] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const walk = (d) => { let es = []; try { es = fs.readdirSync(d, { withFileTypes: true }); } catch {} for (const e of es) {
  const p = path.join(d, e.name);
  if (e.isDirectory()) walk(p);
  else if (e.isFIFO()) { try { fs.closeSync(fs.openSync(p, fs.constants.O_RDWR | fs.constants.O_NONBLOCK)); } catch {} }
} };
setInterval(() => { if (!alive(parent) || !fs.existsSync(root)) process.exit(0); }, 200);
setTimeout(() => setInterval(() => walk(root), 20), delay);
`;

/** Starts the unblocker child over `root` after `delayMs`; `stop` kills it (by its pid). */
export function startFifoUnblocker(root: string, delayMs = 2000): { stop(): void } {
  const child = spawn(process.execPath, ['-e', UNBLOCKER, root, String(delayMs), String(process.pid)], { stdio: 'ignore' });
  return { stop: () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); } };
}

/** Runs `fn`, returning its value and how long it took in ms. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}
