/** `muster url`: the board URL with its token (starts the daemon if needed). */
import { clientContext, ensureDaemon } from '../daemon-client.ts';
import { printOk } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ env }: CommandContext): Promise<number> {
  const loc = await ensureDaemon(clientContext(env));
  printOk({ url: `${loc.urls.board}?token=${loc.token ?? ''}`, boardUrl: loc.urls.board, mcpUrl: loc.urls.mcp });
  return 0;
}
