/** `muster serve [--port N] [--quiet]`: the daemon in the foreground until SIGINT/SIGTERM. */
import { printOk } from '../output.ts';
import { signalReady, takeReadyFd } from '../ready-signal.ts';
import type { CommandContext } from '../command.ts';
import type { Daemon } from '../../daemon/index.ts';

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
    const boardUrl = `${daemon.urls.board}?token=${daemon.token}`;
    printOk({ pid: process.pid, boardUrl, mcpUrl: daemon.urls.mcp, home: daemon.paths.home });
    signalReady(readyFd, process.pid);
    if (!flags.quiet) process.stderr.write(`Muster is running. Board: ${boardUrl}\nPress Ctrl-C to stop.\n`);
    await daemon.closed;
    return 0;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
  }
}
