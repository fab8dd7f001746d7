/** `muster up [--port N]`: a background daemon; returns once it is ready. */
import { boardUrlOf, clientContext, foreignError, locateDaemon, startDaemon } from '../daemon-client.ts';
import { printOk } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ flags, env }: CommandContext): Promise<number> {
  const ctx = clientContext(env);
  let loc = await locateDaemon(ctx);
  if (loc.state === 'foreign') throw foreignError(loc.record);
  const already = loc.state === 'running';
  if (loc.state !== 'running') loc = await startDaemon(ctx, { port: flags.port !== undefined ? Number(flags.port) : undefined });
  if (loc.state !== 'running') return 1;
  printOk({ pid: loc.record.pid, boardUrl: boardUrlOf(ctx, loc), mcpUrl: loc.urls.mcp, alreadyRunning: already });
  return 0;
}
