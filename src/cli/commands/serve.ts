/** `muster serve [--port N] [--quiet]`: the daemon in the foreground until SIGINT/SIGTERM. */
import { printOk } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ flags, env }: CommandContext): Promise<number> {
  const { createDaemon } = await import('../../daemon/index.ts');
  const port = flags.port !== undefined ? Number(flags.port) : undefined;
  const daemon = await createDaemon({ env, port });
  const boardUrl = `${daemon.urls.board}?token=${daemon.token}`;
  printOk({ pid: process.pid, boardUrl, mcpUrl: daemon.urls.mcp, home: daemon.paths.home });
  if (!flags.quiet) process.stderr.write(`Muster is running. Board: ${boardUrl}\nPress Ctrl-C to stop.\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!flags.quiet) process.stderr.write(`Muster: ${signal}, shutting down\n`);
    void daemon.close();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => stop('SIGHUP'));
  await daemon.closed;
  return 0;
}
