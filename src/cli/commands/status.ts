/** `muster status`: is a daemon running for this MUSTER_HOME? Never starts one. */
import { clientContext, locateDaemon } from '../daemon-client.ts';
import { printOk } from '../output.ts';
import { httpJson } from '../http.ts';
import { indexingLabel } from '../../core/indexing.ts';
import type { CommandContext } from '../command.ts';

export async function run({ env }: CommandContext): Promise<number> {
  const ctx = clientContext(env);
  const loc = await locateDaemon(ctx);
  switch (loc.state) {
    case 'running': {
      const indexing = await indexingOf(loc.urls.api, loc.token);
      const label = indexingLabel(indexing);
      printOk({ running: true, pid: loc.record.pid, buildId: loc.record.buildId, boardUrl: loc.urls.board, mcpUrl: loc.urls.mcp, home: ctx.paths.home, ...(indexing ? { indexing } : {}), ...(label ? { progress: label } : {}) });
      break;
    }
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

/** The daemon's cold-index figure (GET /api/status), or null when it cannot say in time. */
async function indexingOf(api: string, token: string | null): Promise<unknown> {
  try {
    const r = await httpJson(`${api}/status`, { token, timeoutMs: 2000 });
    const body = r.body as { indexing?: unknown } | null;
    return r.status === 200 ? (body?.indexing ?? null) : null;
  } catch {
    return null;
  }
}
