/**
 * `muster serve [--port N] [--quiet]`: the daemon in the foreground until SIGINT/SIGTERM. Its
 * envelope carries the board URL with the token, except when stdout is a file (a background
 * daemon's log): then the URL comes without it.
 */
import { fstatSync } from 'node:fs';
import { printOk } from '../output.ts';
import { signalReady, takeReadyFd } from '../ready-signal.ts';
import type { CommandContext } from '../command.ts';
import type { Daemon } from '../../daemon/index.ts';

const TOKEN_HINT = 'the token is never written to a file; `muster url` prints the board URL with it';

/** True when `fd` is a regular file (a log), where a secret would stay on disk. */
function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

export async function run({ flags, env }: CommandContext): Promise<number> {
  // Signal handlers come first: a SIGTERM that lands while the daemon starts, or right after the
  // envelope is printed, must still shut down cleanly (close once, release the lock) — never kill
  // the process with the lock held.
  let daemon: Daemon | null = null;
  let stopping = false;
  const readyFd = takeReadyFd(env);
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!flags.quiet) process.stderr.write(`Muster: ${signal}, shutting down\n`);
    if (daemon) void daemon.close();
  };
  const onInt = () => stop('SIGINT');
  const onTerm = () => stop('SIGTERM');
  const onHup = () => stop('SIGHUP');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  try {
    const { createDaemon } = await import('../../daemon/index.ts');
    const port = flags.port !== undefined ? Number(flags.port) : undefined;
    daemon = await createDaemon({ env, port });
    if (stopping) {
      await daemon.close();
      return 0;
    }
    // A background daemon's stdout and stderr are logs/daemon.log: logs never hold the token.
    const withToken = (fd: number) => (isRegularFile(fd) ? daemon!.urls.board : `${daemon!.urls.board}?token=${daemon!.token}`);
    const boardUrl = withToken(1);
    printOk({ pid: process.pid, boardUrl, mcpUrl: daemon.urls.mcp, home: daemon.paths.home, ...(boardUrl === daemon.urls.board ? { hint: TOKEN_HINT } : {}) });
    signalReady(readyFd, process.pid);
    if (!flags.quiet) process.stderr.write(`Muster is running. Board: ${withToken(2)}\nPress Ctrl-C to stop.\n`);
    await daemon.closed;
    return 0;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
  }
}
