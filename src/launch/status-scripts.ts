/**
 * The in-process status reporters Muster drops into harnesses that have no command hooks: an
 * OpenCode plugin and a pi/omp extension (both plain ES modules, no SDK import). Each posts its
 * harness's events to POST /api/hooks/<harness>/<event>, fire-and-forget (2 s bound: nothing waits on
 * it) except the shutdown post, which the harness awaits and which is bounded by 250 ms; each
 * finds the daemon from the wrapper's env or, when installed globally, from MUSTER_HOME's lock
 * record and token. The harness id is baked in: env would leak into agents started by agents.
 */
import type { Harness } from '../sources/session.ts';

/** First line of every file Muster writes, so install/uninstall/status recognise their own. */
export const MARKER = '// muster-status: written by `muster`; `muster hooks uninstall` removes it';

function client(harness: Harness): string {
  return `${MARKER}
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
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

// node:http, not fetch: pi installs its own undici dispatcher for fetch, and posts through it never
// arrived (observed with pi 0.73.1); node:http also starts faster. Bun (OpenCode, omp) supports it.
function post(event, payload, timeoutMs = 2000) {
  const t = target();
  if (!t) return Promise.resolve();
  return new Promise((done) => {
    let timer;
    const finish = () => {
      clearTimeout(timer);
      done();
    };
    try {
      const u = new URL(t.api + '/hooks/' + HARNESS + '/' + encodeURIComponent(event));
      const body = JSON.stringify({ payload, pid: process.pid, launchId: process.env.MUSTER_LAUNCH_ID || null });
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer ' + t.token } },
        (res) => {
          res.on('data', () => {});
          res.on('end', finish);
          res.on('error', finish);
        },
      );
      timer = setTimeout(() => {
        req.destroy();
        finish();
      }, timeoutMs);
      if (timer.unref) timer.unref();
      req.on('error', finish);
      req.end(body);
    } catch {
      finish();
    }
  });
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
  pi.on('session_shutdown', async (_event, ctx) => post('session_shutdown', payload(ctx), 250));
}
`;
}
