/**
 * The in-process status reporters Muster drops into harnesses that have no command hooks: an
 * OpenCode TUI plugin and a pi/omp extension (both plain ES modules, no SDK import). Each posts its
 * harness's events to POST /api/hooks/<harness>/<event>, fire-and-forget (2 s bound: nothing waits on
 * it) except the shutdown post, which the harness awaits and which is bounded by 250 ms; each
 * finds the daemon from the wrapper's env or, when installed globally, from MUSTER_HOME's lock
 * record and token. The harness id is baked in: env would leak into agents started by agents.
 */
import type { Harness } from '../sources/session.ts';
import { TOKEN_PATTERN } from '../daemon/token-format.ts';
import { ASK_TEXT, AWAIT_TEXT, CANCEL_TEXT, NEXT_STEP, NOTIFY_TEXT } from '../pager/tool-texts.ts';

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
    // Loopback only: the token must not leave the machine. An empty or malformed token file is no token.
    if (typeof api !== 'string' || !/^http:\\/\\/(127\\.0\\.0\\.1|localhost|\\[::1\\]):\\d+\\/api$/.test(api) || !${TOKEN_PATTERN}.test(token)) return null;
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

/**
 * OpenCode TUI plugin (listed in a tui.json, loaded by the TUI). Not a server plugin: OpenCode 1.18.33
 * makes every server plugin wait for the `@opencode-ai/plugin` install it starts in each config
 * directory, which offline blocks start-up for minutes (see plan-inprocess.ts). A TUI plugin is the
 * module's default export `{ id, tui }`; its `api.event.on` hands over the same bus events as a
 * server plugin's `event` hook, in the TUI's process. Helpers stay unexported.
 */
export function opencodePluginSource(): string {
  return `${client('opencode')}
const EVENTS = ['session.status', 'session.idle', 'permission.asked', 'permission.replied', 'question.asked'];

function forward(event) {
  if (!event || !EVENTS.includes(event.type)) return;
  const p = event.properties || {};
  const permission = typeof p.permission === 'string' ? p.permission : typeof p.type === 'string' ? p.type : undefined;
  void post(event.type, { sessionID: p.sessionID, status: p.status, permission });
}

export default {
  id: 'muster-status',
  tui: async (api) => {
    for (const type of EVENTS) api.event.on(type, forward);
  },
};
`;
}

/**
 * The pager's four tools for pi and omp, registered by the extension (pi has no MCP; omp reads MCP only
 * from config files the wrapper must not edit). Same names, arguments, wait semantics and JSON results
 * as the MCP tools (src/pager/mcp-tools.ts); they call the daemon's REST twin (routes/pages.ts) with the
 * session's identity headers, so a page names the session that asked.
 */
function pagerToolsSource(): string {
  return `
function callApi(path, body, ctx, timeoutMs, signal) {
  const t = target();
  if (!t) return Promise.resolve({ status: 0, json: { ok: false, error: { code: 'daemon_unreachable', message: 'Muster is not running' } } });
  return new Promise((done) => {
    const u = new URL(t.api + path);
    const data = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), authorization: 'Bearer ' + t.token, 'x-muster-harness': HARNESS };
    const p = payload(ctx);
    if (p.sessionId) headers['x-muster-session-id'] = p.sessionId;
    if (typeof p.cwd === 'string') headers['x-muster-cwd'] = p.cwd;
    if (process.env.MUSTER_LAUNCH_ID) headers['x-muster-launch-id'] = process.env.MUSTER_LAUNCH_ID;
    const fail = (message) => done({ status: 0, json: { ok: false, error: { code: 'daemon_unreachable', message } } });
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        try {
          done({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch {
          fail('Muster answered ' + res.statusCode);
        }
      });
      res.on('error', () => fail('the answer from Muster was cut off'));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('Muster did not answer in time')));
    req.on('error', (e) => fail(e.message));
    if (signal) signal.addEventListener('abort', () => req.destroy(new Error('cancelled')), { once: true });
    req.end(data);
  });
}

function toolResult(structured) {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], details: structured };
}

function failure(json) {
  const e = (json && json.error) || {};
  return { content: [{ type: 'text', text: (e.code || 'internal') + ': ' + (e.message || 'the pager failed') }], details: { error: e }, isError: true };
}

const NEXT_STEP = ${JSON.stringify(NEXT_STEP)};
function instructionFor(o) {
  if (o.status === 'answered') return NEXT_STEP.answered;
  if (o.status === 'pending') return NEXT_STEP.pending.replace('{pageId}', o.pageId);
  return NEXT_STEP.closed.replace('{status}', o.status);
}

// The daemon bounds one wait (askWaitSeconds, about 45 s); this only guards against a daemon that hangs.
const WAIT_GUARD_MS = 10 * 60 * 1000;

async function waitFor(pageId, ctx, signal) {
  const r = await callApi('/pages/' + encodeURIComponent(pageId) + '/wait', {}, ctx, WAIT_GUARD_MS, signal);
  if (!r.json || r.json.ok !== true) return failure(r.json);
  const { ok, ...outcome } = r.json;
  return toolResult({ ...outcome, instruction: instructionFor(outcome) });
}

/** One short pager call: the tool's result from the daemon's envelope, or its error as a tool error. */
async function pagerCall(path, body, ctx, signal, onOk) {
  const r = await callApi(path, body, ctx, 10000, signal);
  return r.json && r.json.ok === true ? onOk(r.json) : failure(r.json);
}

function registerPagerTools(pi) {
  if (typeof pi.registerTool !== 'function') return;
  const str = (description) => ({ type: 'string', description });
  pi.registerTool({
    name: 'ask_operator',
    label: 'Ask the operator',
    description: ${JSON.stringify(ASK_TEXT)},
    parameters: {
      type: 'object',
      properties: {
        question: str('The question, in plain text, self-contained (the operator may not see your conversation).'),
        choices: { type: 'array', items: { type: 'string' }, description: 'Options to choose from, when the answer is one of a few.' },
        urgency: { type: 'string', enum: ['low', 'normal', 'high'], description: 'How soon an answer is needed.' },
        context: str('What you were doing and why you ask, for the operator.'),
      },
      required: ['question'],
    },
    async execute(_id, params, signal, _onUpdate, ctx) {
      return pagerCall('/pages/ask', params, ctx, signal, (j) => waitFor(j.page.id, ctx, signal));
    },
  });
  pi.registerTool({
    name: 'await_answer',
    label: 'Await the answer',
    description: ${JSON.stringify(AWAIT_TEXT)},
    parameters: { type: 'object', properties: { pageId: str('The pageId that ask_operator returned.') }, required: ['pageId'] },
    async execute(_id, params, signal, _onUpdate, ctx) {
      return waitFor(String(params.pageId), ctx, signal);
    },
  });
  pi.registerTool({
    name: 'notify_operator',
    label: 'Notify the operator',
    description: ${JSON.stringify(NOTIFY_TEXT)},
    parameters: {
      type: 'object',
      properties: { message: str('What the operator should know.'), level: { type: 'string', enum: ['info', 'warning', 'error'] } },
      required: ['message'],
    },
    async execute(_id, params, signal, _onUpdate, ctx) {
      return pagerCall('/pages/notify', params, ctx, signal, (j) => toolResult({ status: 'sent', pageId: j.page.id }));
    },
  });
  pi.registerTool({
    name: 'cancel_page',
    label: 'Cancel a question',
    description: ${JSON.stringify(CANCEL_TEXT)},
    parameters: { type: 'object', properties: { pageId: str('The pageId of the question to withdraw.') }, required: ['pageId'] },
    async execute(_id, params, signal, _onUpdate, ctx) {
      const path = '/pages/' + encodeURIComponent(String(params.pageId)) + '/cancel';
      return pagerCall(path, {}, ctx, signal, (j) => toolResult({ status: j.page.status, pageId: j.page.id }));
    },
  });
}
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

${pagerToolsSource()}
export default function muster(pi) {
  registerPagerTools(pi);
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
