/** `muster status`: is a daemon running for this MUSTER_HOME? Never starts one. */
import { clientContext, locateDaemon } from '../daemon-client.ts';
import { printOk } from '../output.ts';
import type { CommandContext } from '../command.ts';

export async function run({ env }: CommandContext): Promise<number> {
  const ctx = clientContext(env);
  const loc = await locateDaemon(ctx);
  switch (loc.state) {
    case 'running':
      printOk({ running: true, pid: loc.record.pid, buildId: loc.record.buildId, boardUrl: loc.urls.board, mcpUrl: loc.urls.mcp, home: ctx.paths.home });
      break;
    case 'starting':
      printOk({ running: true, starting: true, pid: loc.record.pid, buildId: loc.record.buildId, home: ctx.paths.home });
      break;
    case 'foreign':
      printOk({ running: true, foreign: true, pid: loc.record.pid, buildId: loc.record.buildId, home: ctx.paths.home, hint: 'another build owns this store; `muster down` stops it' });
      break;
    case 'stopped':
      printOk({ running: false, home: ctx.paths.home, staleLock: loc.staleRecord });
  }
  return 0;
}
