/**
 * Real-harness tier for `muster <harness>` and hooks (issue 8): the pinned CLIs run through the BUILT
 * wrapper against the fake model and a real daemon over their isolated homes. Each scenario asserts
 * the status transitions the daemon received from hook events (SSE `hook.event.received`), what
 * `muster ls --json` then reports, that a page asked through Muster's MCP tool names the session,
 * and that the user's own config files are byte-identical afterwards.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { splitBoardUrl } from '../e2e/kit.ts';
import { ensureHarnessCli, harnessEnv, runCli, startHarnessDaemon, startTmux, typeUntilSent as typeUntil } from './kit/index.ts';
import type { DaemonEvent, EventStream, HarnessCli, HarnessDaemon, HarnessEnv, HarnessName, Pane, Tmux } from './kit/index.ts';

const SCENARIO_MS = 240_000;

/** Every regular file below `dir` (skipping `skip` names), with its bytes. */
function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (skip(rel)) continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(rel, fs.readFileSync(p, 'latin1'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** The built CLI the kit daemon runs (its private copy of dist/): read back from the daemon's argv. */
function cliOf(d: HarnessDaemon): string {
  const argv = fs.readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').split('\0');
  const cli = argv.find((a) => a.endsWith('cli.js'));
  assert.ok(cli, `no cli.js in the daemon's argv: ${argv.join(' ')}`);
  return cli;
}

interface Api {
  get(p: string): Promise<Record<string, unknown>>;
  post(p: string, body: unknown): Promise<Record<string, unknown>>;
}

async function apiOf(d: HarnessDaemon): Promise<Api> {
  const r = await d.muster(['url']);
  const { base, token } = splitBoardUrl(String(r.json['url']));
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${base}/api${p}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    return (await res.json()) as Record<string, unknown>;
  };
  return { get: (p) => call('GET', p), post: (p, b) => call('POST', p, b) };
}

/** The hook-driven statuses the daemon received for one session, in order (repeats collapsed). */
function hookStatuses(events: EventStream, sessionId: string): string[] {
  const out: string[] = [];
  for (const e of events.events) {
    if (e.type !== 'hook.event.received' || e.data['sessionId'] !== sessionId || typeof e.data['status'] !== 'string') continue;
    const s = e.data['status'] === 'waiting' ? `waiting(${String(e.data['waitingFor'])})` : String(e.data['status']);
    if (out.at(-1) !== s) out.push(s);
  }
  return out;
}

/** Resolves once `count` hook events for the session carried `status` (counting is immune to clock ties). */
function nthHook(events: EventStream, sessionId: string, status: string, count: number, timeoutMs: number): Promise<DaemonEvent> {
  let seen = 0;
  const counted = new WeakSet<DaemonEvent>();
  return events.waitFor(`hook #${count} → ${status}`, (e) => {
    if (!isHook(sessionId, status)(e)) return false;
    if (!counted.has(e)) {
      counted.add(e);
      seen++;
    }
    return seen >= count;
  }, timeoutMs);
}

/** A hook event for the session with that status, received at or after `since` (epoch ms). */
const isHook = (sessionId: string | null, status: string, since = 0) => (e: DaemonEvent) =>
  e.type === 'hook.event.received' && (sessionId === null || e.data['sessionId'] === sessionId) && e.data['status'] === status && e.at >= since;

describe('muster <harness>: the real CLIs wrapped, status from hooks, pages attributed', () => {
  let model: FakeModel;
  let tmux: Tmux;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-wrapper-'));
  const panes: number[] = [];
  const daemons: HarnessDaemon[] = [];
  let n = 0;

  before(async () => {
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    tmux = await startTmux(path.join(root, 'tmux'));
  });

  after(async () => {
    for (const pid of panes) {
      try { process.kill(pid, 'SIGKILL'); } catch {}
    }
    for (const d of daemons) await d.close();
    await tmux?.kill();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function scenario(name: HarnessName, opts: { codexDaemon?: boolean } = {}): Promise<{ cli: HarnessCli; h: HarnessEnv; d: HarnessDaemon; api: Api; muster: string }> {
    const cli = await ensureHarnessCli(name);
    const sRoot = path.join(root, `s${++n}-${name}`);
    const h = harnessEnv(name, { root: sRoot, modelUrl: model.url, binDir: cli.binDir, ...opts });
    const d = await startHarnessDaemon({ homes: [h], root: sRoot });
    daemons.push(d);
    return { cli, h, d, api: await apiOf(d), muster: cliOf(d) };
  }

  /** `muster <harness> …` in a tmux pane, with the daemon's MUSTER_HOME (the wrapper finds it running). */
  async function wrapped(s: { h: HarnessEnv; d: HarnessDaemon; muster: string }, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Pane> {
    const pane = await tmux.newPane([process.execPath, s.muster, ...args], { cwd: s.h.cwd, env: { ...s.h.env, MUSTER_HOME: s.d.env.MUSTER_HOME, ...env } });
    panes.push(pane.pid);
    return pane;
  }

  async function type(pane: Pane, text: string): Promise<void> {
    await tmux.sendKeys(pane.id, text, { literal: true });
    await new Promise((r) => setTimeout(r, 300)); // let the TUI take the text before Enter
    await tmux.sendKeys(pane.id, 'Enter');
  }

  const typeUntilSent = (pane: Pane, text: string, tries?: number, perTryMs?: number) => typeUntil(tmux, model, pane.id, text, tries, perTryMs);

  /** Waits for the page a session asks, answers it through POST /api/pages/:id/answer, returns it. */
  async function answerPage(events: EventStream, api: Api, text: string): Promise<Record<string, unknown>> {
    const opened = await events.waitFor('page.opened', (e) => e.type === 'page.opened', 90_000);
    const page = (opened.data['page'] ?? opened.data) as Record<string, unknown>;
    const r = await api.post(`/pages/${String(page['id'])}/answer`, { text });
    assert.equal(r['ok'], true, JSON.stringify(r));
    return page;
  }

  it('claude --name demo in tmux: listed as "demo", status from hooks, a page names it, user hooks still run, config untouched', { timeout: SCENARIO_MS }, async () => {
    const s = await scenario('claude');
    const { h, d, api } = s;
    // The user's own settings with a hook of theirs: --settings must merge with it, not replace it.
    const userHookLog = path.join(h.cwd, '..', 'user-hook.log');
    fs.writeFileSync(path.join(h.configDir, 'settings.json'), `${JSON.stringify({ hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: `echo stop >> ${userHookLog}` }] }] } }, null, 2)}\n`);
    const skip = (rel: string) => !rel.startsWith('settings');
    const before = snapshot(h.configDir, skip);
    const events = await d.events();

    const t0 = Date.now();
    const pane = await wrapped(s, ['claude', '--name', 'demo', '--permission-mode', 'manual', '--allowedTools', 'mcp__muster__ask_operator'], {
      // Claude defers MCP tools behind ToolSearch; the fake model calls the tool directly.
      ENABLE_TOOL_SEARCH: 'false',
    });
    const first = await events.waitFor('the session listed', (e) => e.type === 'session.upserted' && (e.data['session'] as { harness?: string }).harness === 'claude', 60_000);
    const listedMs = first.at - t0;
    const session = first.data['session'] as { id: string; title: string | null; live: boolean };
    assert.equal(session.title, 'demo', 'named "demo" from its first listing');
    const id = session.id;
    const started = await events.waitFor('SessionStart hook', isHook(id, 'idle'), 30_000);
    console.log(`[wrapper] claude listed as demo ${listedMs} ms after the pane started; SessionStart hook +${started.at - first.at} ms`);
    await tmux.waitForText(pane.id, /❯|>/, 30_000);

    await type(pane, 'SLOW3 hello from the wrapper');
    await events.waitFor('UserPromptSubmit → working', isHook(id, 'working'), 30_000);
    await events.waitFor('session.status.changed working', (e) => e.type === 'session.status.changed' && e.data['id'] === id && e.data['status'] === 'working', 10_000);
    await d.waitFor((x) => x.id === id && x.status === 'idle' && x.tokens.output > 0, 60_000, 'idle after the turn');
    assert.ok(fs.existsSync(userHookLog), "the user's own Stop hook ran beside Muster's (--settings merged)");

    // A permission prompt: the hook names the tool, which the file-derived status cannot.
    await type(pane, `TOOLCALL: Write {"file_path":${JSON.stringify(path.join(h.cwd, 'w.txt'))},"content":"x"}`);
    const waiting = await d.waitFor((x) => x.id === id && x.status === 'waiting', 60_000, 'waiting on the permission prompt');
    assert.equal(waiting.waitingFor, 'permission: Write', 'waitingFor comes from the PermissionRequest hook');
    assert.equal(waiting.title, 'demo');
    await tmux.waitForText(pane.id, /Do you want to/, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    await tmux.sendKeys(pane.id, 'Enter');
    await nthHook(events, id, 'idle', 3, 60_000); // SessionStart, the first Stop, this Stop

    // A page through Muster's MCP tool, attributed by the wrapper's headers.
    await type(pane, 'TOOLCALL: muster/ask_operator {"question":"Which colour, demo?"}');
    const page = await answerPage(events, api, 'blue').catch(async (e: unknown) => {
      throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
    });
    assert.equal(page['sessionId'], id, `the page names the session: ${JSON.stringify(page['attribution'])}`);
    assert.equal(page['harness'], 'claude');
    await nthHook(events, id, 'idle', 4, 60_000);

    await type(pane, '/exit');
    await events.waitFor('SessionEnd → ended', isHook(id, 'ended'), 30_000);
    const ended = await d.waitFor((x) => x.id === id && !x.live, 30_000, 'ended after /exit');
    assert.equal(ended.title, 'demo');
    const trace = events.events.filter((e) => e.type === 'hook.event.received').map((e) => `${String(e.data['event'])}→${String(e.data['status'])}`);
    assert.deepEqual(hookStatuses(events, id), ['idle', 'working', 'idle', 'working', 'waiting(permission: Write)', 'working', 'idle', 'working', 'idle', 'ended'], trace.join(' '));
    const launches = (await api.get('/launches')).launches as { sessionId: string; name: string; exitCode: number | null }[];
    assert.deepEqual(launches.map((l) => [l.sessionId, l.name, l.exitCode]), [[id, 'demo', 0]]);
    events.close();
    assert.deepEqual(snapshot(h.configDir, skip), before, "the user's settings are byte-identical");
  });

  for (const name of ['pi', 'omp'] as const) {
    it(`${name} through the wrapper: the status extension drives idle → working → idle → ended, its ask_operator tool pages the operator naming the session and returns the answer; config untouched`, { timeout: SCENARIO_MS }, async () => {
      const s = await scenario(name);
      const { h, d, api } = s;
      const before = snapshot(h.configDir, (rel) => rel.startsWith('sessions'));
      const events = await d.events();
      const pane = await wrapped(s, [name, ...h.argvPrefix, ...(name === 'omp' ? ['--no-title'] : [])]);
      const start = await events.waitFor('session_start → idle', isHook(null, 'idle'), 90_000).catch(async (e: unknown) => {
        throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
      });
      const id = String(start.data['sessionId']);
      assert.match(id, /^[0-9a-f-]{36}$/, `the extension named the session: ${JSON.stringify(start.data)}`);
      await tmux.waitForText(pane.id, name === 'pi' ? /fake-model/ : /Fake OpenAI/, 60_000);
      await new Promise((r) => setTimeout(r, 1000));
      const typed = Date.now();
      await typeUntilSent(pane, 'SLOW3 hello from the wrapper');
      await events.waitFor('agent_start → working', isHook(id, 'working', typed), 30_000);
      await events.waitFor('agent_end → idle', isHook(id, 'idle', typed), 60_000);
      const listed = await d.waitFor((x) => x.id === id && x.live, 30_000, `${name} session listed live`);
      assert.equal(listed.status, 'idle');
      // The extension's ask_operator (pi has no MCP; omp's lives in config files): a page naming the
      // session; the operator's answer goes back to the model as the tool's result.
      const asked = Date.now();
      await typeUntilSent(pane, 'TOOLCALL: ask_operator {"question":"Deploy to staging?","choices":["yes","no"]}');
      const page = await answerPage(events, api, 'yes').catch(async (e: unknown) => {
        throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
      });
      assert.equal(page['sessionId'], id, `the page names the session: ${JSON.stringify(page)}`);
      assert.equal(page['harness'], name);
      assert.equal(page['question'], 'Deploy to staging?');
      const toolResult = () => model.requests.some((r) => JSON.stringify(r.body).includes('\\"answer\\":\\"yes\\"'));
      await events.waitFor('idle after the answered tool call', (e) => isHook(id, 'idle', asked)(e) && toolResult(), 60_000).catch(async (e: unknown) => {
        throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
      });
      await tmux.sendKeys(pane.id, name === 'pi' ? 'C-d' : ['/exit']);
      if (name === 'omp') await tmux.sendKeys(pane.id, 'Enter');
      await events.waitFor('session_shutdown → ended', isHook(id, 'ended'), 30_000);
      assert.deepEqual(hookStatuses(events, id), ['idle', 'working', 'idle', 'working', 'idle', 'ended']);
      await d.waitFor((x) => x.id === id && !x.live, 30_000, 'not live after exit');
      const launches = (await api.get('/launches')).launches as { sessionId: string; exitCode: number | null }[];
      assert.deepEqual(launches.map((l) => [l.sessionId, l.exitCode]), [[id, 0]], 'the launch learnt its session from the extension');
      events.close();
      const after = snapshot(h.configDir, (rel) => rel.startsWith('sessions'));
      for (const [rel, bytes] of before) assert.equal(after.get(rel), bytes, `${rel} is byte-identical`);
    });
  }

  it('hooks install then uninstall: one copy, the user hook kept, original bytes back; with the daemon stopped the hooks stay within the bound', { timeout: SCENARIO_MS }, async () => {
    const s = await scenario('claude');
    const { cli, h, d } = s;
    const settings = path.join(h.configDir, 'settings.json');
    const original = `${JSON.stringify({ model: 'opus', hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'true' }] }] } }, null, 2)}\n`;
    fs.writeFileSync(settings, original);
    for (let i = 0; i < 2; i++) {
      const r = await d.muster(['hooks', 'install', '--harness', 'claude']);
      assert.equal(r.code, 0, r.stderr);
    }
    const doc = JSON.parse(fs.readFileSync(settings, 'utf8')) as { model: string; hooks: Record<string, { hooks: { command: string }[] }[]> };
    assert.equal(doc.model, 'opus');
    assert.deepEqual(doc.hooks['Stop']?.map((g) => g.hooks[0]?.command.endsWith('hook claude Stop') ? 'muster' : g.hooks[0]?.command), ['true', 'muster'], 'installed once, after the user hook');

    // Daemon stopped: every hook posts to nothing. Claude reports each hook's start and end in stream-json.
    await d.close();
    const nodeMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = Date.now();
      await runCli(process.execPath, ['-e', '0'], { cwd: h.cwd, env: h.env, timeoutMs: 30_000 });
      nodeMs.push(Date.now() - t);
    }
    const stamps = new Map<string, number>();
    const hookMs: number[] = [];
    const child = (await import('node:child_process')).spawn(cli.bin, ['-p', 'hello with the daemon down', '--output-format', 'stream-json', '--verbose'], { cwd: h.cwd, env: { ...h.env, MUSTER_HOME: d.env.MUSTER_HOME }, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const m = JSON.parse(line) as { subtype?: string; hook_id?: string; hook_event?: string; exit_code?: number };
        if (m.subtype === 'hook_started' && m.hook_id) stamps.set(m.hook_id, Date.now());
        if (m.subtype === 'hook_response' && m.hook_id && stamps.has(m.hook_id)) {
          assert.equal(m.exit_code, 0, `${m.hook_event} hook failed open`);
          hookMs.push(Date.now() - stamps.get(m.hook_id)!);
        }
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    assert.ok(hookMs.length >= 1, 'Claude reported at least one Muster hook run');
    const slowest = Math.max(...hookMs);
    console.log(`[wrapper] daemon down: claude hook runs ${hookMs.join(', ')} ms; node -e 0 ${nodeMs.join(', ')} ms`);
    assert.ok(slowest <= Math.max(...nodeMs) + 300, `a hook took ${slowest} ms with the daemon down; node -e 0 took up to ${Math.max(...nodeMs)} ms`);

    for (let i = 0; i < 2; i++) assert.equal((await d.muster(['hooks', 'uninstall', '--harness', 'claude'])).code, 0);
    assert.equal(fs.readFileSync(settings, 'utf8'), original, 'byte-identical after uninstall');
  });

  it('opencode through the wrapper: the TUI plugin loads from OPENCODE_TUI_CONFIG, busy → working, idle; a page names the session by its launch', { timeout: 400_000 }, async () => {
    const s = await scenario('opencode');
    const { h, d, api } = s;
    const skip = (rel: string) => rel.startsWith('node_modules') || rel === 'package-lock.json';
    const before = snapshot(h.configDir, skip);
    const events = await d.events();
    const pane = await wrapped(s, ['opencode']);
    // The TUI drops keys typed before its prompt is drawn (slow under load).
    await tmux.waitForText(pane.id, /Ask anything/, 180_000);
    await new Promise((r) => setTimeout(r, 1000));
    // OpenCode's first request can take a minute under load; a second Enter would queue an empty prompt.
    await typeUntilSent(pane, 'SLOW3 hello from the wrapper', 1, 150_000);
    const busy = await events.waitFor('session.status busy → working', isHook(null, 'working'), 60_000).catch(async (e: unknown) => {
      throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
    });
    const id = String(busy.data['sessionId']);
    assert.match(id, /^ses_/);
    await nthHook(events, id, 'idle', 1, 90_000);
    const listed = await d.waitFor((x) => x.id === id && x.live, 60_000, 'opencode session listed live');
    assert.equal(listed.status, 'idle');

    // OpenCode's MCP calls carry no session id: the wrapper's x-muster-launch-id names it through the launch record.
    await typeUntilSent(pane, 'TOOLCALL: muster/ask_operator {"question":"Which colour, opencode?"}', 1, 150_000);
    const page = await answerPage(events, api, 'green');
    assert.equal(page['sessionId'], id, `the page names the session: ${JSON.stringify(page['attribution'])}`);
    // OpenCode reports a turn's end twice (session.status idle, then session.idle): count transitions, not events.
    await events.waitFor('idle after the answer', () => hookStatuses(events, id).length >= 4, 90_000);
    const trace = hookStatuses(events, id);
    assert.deepEqual(trace.slice(0, 4), ['working', 'idle', 'working', 'idle'], trace.join(' '));
    await tmux.sendKeys(pane.id, 'C-c');
    await d.waitFor((x) => x.id === id && !x.live, 60_000, 'not live after the TUI quit');
    events.close();
    const after = snapshot(h.configDir, skip);
    for (const [rel, bytes] of before) assert.equal(after.get(rel), bytes, `${rel} is byte-identical`);
  });

  it('codex --no-daemon through the wrapper: notify drives idle per turn, --name names the thread, a page names it', { timeout: 400_000 }, async () => {
    const s = await scenario('codex');
    const { h, d, api } = s;
    const before = snapshot(h.configDir, (rel) => !/^(config\.toml|hooks\.json)$/.test(rel));
    const events = await d.events();
    const pane = await wrapped(s, ['codex', '--name', 'cx', '--no-daemon']);
    const prompt = async (text: string) => {
      await tmux.waitForText(pane.id, /Ask Codex to do anything|›/, 120_000);
      await typeUntilSent(pane, text);
    };
    await prompt('hello from the wrapper');
    const done = await events.waitFor('notify agent-turn-complete → idle', (e) => isHook(null, 'idle')(e) && e.data['event'] === 'notify' && e.data['sessionId'] !== null, 120_000).catch(async (e: unknown) => {
      throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
    });
    // The first notify may come from Codex's title side thread; the session is the one that gets listed.
    const listed = await d.waitFor((x) => x.live && x.harness === 'codex' && x.tokens.output > 0, 60_000, 'codex thread listed live');
    assert.equal(listed.status, 'idle');
    const id = listed.id;
    assert.ok(done);
    await d.waitFor((x) => x.id === id && x.title === 'cx', 30_000, 'named by --name once the launch learnt its thread');

    await prompt('TOOLCALL: muster/ask_operator {"question":"Which colour, codex?"}');
    const page = await answerPage(events, api, 'red').catch(async (e: unknown) => {
      throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
    });
    assert.equal(page['sessionId'], id, `the page names the thread: ${JSON.stringify(page['attribution'])}`);
    await nthHook(events, id, 'idle', 2, 120_000);
    await tmux.sendKeys(pane.id, '/quit', { literal: true });
    for (const deadline = Date.now() + 30_000; !(await tmux.isDead(pane.id)) && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 500));
      await tmux.sendKeys(pane.id, 'Enter');
      await new Promise((r) => setTimeout(r, 1000));
    }
    await d.waitFor((x) => x.id === id && !x.live, 30_000, 'dormant after /quit');
    const launches = (await api.get('/launches')).launches as { sessionId: string; exitCode: number | null }[];
    assert.deepEqual(launches.map((l) => [l.sessionId, l.exitCode]), [[id, 0]]);
    events.close();
    // Codex itself appends TUI state ([tui] …) to config.toml; Muster adds nothing to it and writes no hooks.json.
    const after = snapshot(h.configDir, (rel) => !/^(config\.toml|hooks\.json)$/.test(rel));
    assert.deepEqual([...after.keys()], ['config.toml']);
    assert.ok(after.get('config.toml')!.startsWith(before.get('config.toml')!), 'the user\'s lines are unchanged');
    assert.doesNotMatch(after.get('config.toml')!, /notify|mcp_servers|hook codex/);
  });
});
