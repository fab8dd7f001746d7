/**
 * The start-up handshake between `muster up` (or any command that starts the daemon) and the daemon it
 * spawns: the parent passes a pipe as fd 3 and names it in MUSTER_READY_FD; the daemon writes one line
 * there once it serves, and closes it. The parent then skips polling and the health round trip.
 */
import { closeSync, writeSync } from 'node:fs';

export const READY_FD_ENV = 'MUSTER_READY_FD';

/** Takes the fd out of the environment (so no harness the daemon starts inherits the name). */
export function takeReadyFd(env: NodeJS.ProcessEnv): number | null {
  const raw = env[READY_FD_ENV];
  delete env[READY_FD_ENV];
  const fd = Number(raw);
  return Number.isInteger(fd) && fd >= 3 ? fd : null;
}

/** Writes the ready line and closes the fd; a parent that went away is not an error. */
export function signalReady(fd: number | null, pid: number): void {
  if (fd === null) return;
  try {
    writeSync(fd, `${JSON.stringify({ ready: true, pid })}\n`);
  } catch {
    // EPIPE: the parent stopped waiting.
  }
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
