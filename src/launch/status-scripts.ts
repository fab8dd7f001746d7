/**
 * The in-process status reporters Muster drops into harnesses that have no command hooks: an
 * OpenCode plugin and a pi/omp extension (both plain ES modules, no SDK import). Each posts its
 * harness's events to POST /api/hooks/<harness>/<event>, fire-and-forget with a 250 ms bound, and
 * finds the daemon from the wrapper's env or, when installed globally, from MUSTER_HOME's lock
 * record and token. The harness id is baked in: env would leak into agents started by agents.
 */
import type { Harness } from '../sources/session.ts';

/** First line of every file Muster writes, so install/uninstall/status recognise their own. */
export const MARKER = '// muster-status: written by `muster`; `muster hooks uninstall` removes it';

function client(harness: Harness): string {
  return `${MARKER}
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const HARNESS = ${JSON.stringify(harness)};

function target() {
  try {
    const home = process.env.MUSTER_HOME || join(homedir(), '.muster');
    const api = process.env.MUSTER_URL || JSON.parse(readFileSync(join(home, 'muster.db.lock'), 'utf8')).endpoints.api;
    const token = readFileSync(process.env.MUSTER_TOKEN_FILE || join(home, 'token'), 'utf8').trim();
    // Loopback only: the token must not leave the machine.
    if (typeof api !== 'string' || !/^http:\\/\\/(127\\.0\\.0\\.1|localhost|\\[::1\\]):\\d+\\/api$/.test(api) || !token) return null;
    return { api, token };
  } catch {
    return null;
  }
}

async function post(event, payload) {
  const t = target();
  if (!t) return;
  try {
    await fetch(t.api + '/hooks/' + HARNESS + '/' + encodeURIComponent(event), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + t.token },
      body: JSON.stringify({ payload, pid: process.pid, launchId: process.env.MUSTER_LAUNCH_ID || null }),
      signal: AbortSignal.timeout(250),
    });
  } catch {}
}
`;
}

/** OpenCode plugin: every export is a plugin, so helpers stay unexported. */
export function opencodePluginSource(): string {
  return `${client('opencode')}
const EVENTS = new Set(['session.status', 'session.idle', 'permission.asked', 'permission.replied', 'question.asked']);

export const MusterStatus = async () => ({
  event: async ({ event }) => {
    if (!event || !EVENTS.has(event.type)) return;
    const p = event.properties || {};
    const permission = typeof p.permission === 'string' ? p.permission : typeof p.type === 'string' ? p.type : undefined;
    void post(event.type, { sessionID: p.sessionID, status: p.status, permission });
  },
});
`;
}

/** pi / omp extension (pi-and-omp.md A6): the same file loads in both. */
export function piExtensionSource(harness: 'pi' | 'omp'): string {
  return `${client(harness)}
function payload(ctx) {
  let sessionId;
  try {
    sessionId = ctx && ctx.sessionManager ? ctx.sessionManager.getSessionId() : undefined;
  } catch {}
  return { sessionId, cwd: ctx && ctx.cwd };
}

export default function muster(pi) {
  for (const name of ['session_start', 'agent_start', 'agent_end']) {
    pi.on(name, async (_event, ctx) => {
      void post(name, payload(ctx));
    });
  }
  // The process is leaving: wait (at most 250 ms) so the post is not cut off.
  pi.on('session_shutdown', async (_event, ctx) => post('session_shutdown', payload(ctx)));
}
`;
}
