/** `muster url`: the board URL with its token (starts the daemon if needed). */
import { boardUrlOf, clientContext, ensureDaemon } from '../daemon-client.ts';
import { printOk } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ env }: CommandContext): Promise<number> {
  const ctx = clientContext(env);
  const loc = await ensureDaemon(ctx);
  printOk({ url: boardUrlOf(ctx, loc), boardUrl: loc.urls.board, mcpUrl: loc.urls.mcp });
  return 0;
}
