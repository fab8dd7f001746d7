/**
 * `muster send`, real-harness tier (issue 21, point 3): the pinned CLIs run in a private tmux against
 * the fake model, and the daemon (the built CLI) delivers a prompt to each through its channel —
 * pi through Muster's extension (`muster pi`, the inbox), OpenCode through Muster's TUI plugin
 * (`muster opencode`, the inbox), Claude Code (`muster claude`) typed into its verified pane, a Codex
 * thread held by Codex's shared app-server daemon through that daemon's `turn/start` — and resumes a
 * dormant Claude session with the prompt. The fake model's request log receiving the text is the proof it
 * reached the session; the daemon's events show the session go working → idle.
 *
 * One home, one daemon and one tmux server serve every scenario (each asserts on its own session);
 * the server's global environment is Claude's, so the window a resume opens talks to the fake model.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, lastUserText, startFakeModel, type FakeModel, type FakeRequest } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, startHarnessDaemon, startOpencodeServe, startTmux, typeUntilSent } from './kit/index.ts';
import type { EventStream, HarnessDaemon, HarnessEnv, HarnessName, Pane, Tmux } from './kit/index.ts';
import type { Session } from '../../src/core/session.ts';

const SCENARIO_MS = 300_000;

describe('muster send to real harnesses', () => {
  let model: FakeModel;
  let tmux: Tmux;
  let d: HarnessDaemon;
  let events: EventStream;
  const envs = new Map<HarnessName, HarnessEnv>();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-send-'));
  let museCli = '';

  before(async () => {
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    for (const name of ['claude', 'pi', 'opencode', 'codex', 'gemini', 'copilot'] as const) {
      const cli = await ensureHarnessCli(name);
      envs.set(name, harnessEnv(name, { root, modelUrl: model.url, binDir: cli.binDir }));
    }
    tmux = await startTmux(path.join(root, 'tmux'), { env: envs.get('claude')!.env });
    // tmux gives a window opened by a client outside tmux (the daemon) that client's PATH: claude's bin on it.
    d = await startHarnessDaemon({ homes: [...envs.values()], root, env: { MUSTER_TMUX_SOCKET: tmux.socket, PATH: String(envs.get('claude')!.env['PATH']) } });
    events = await d.events();
    museCli = fs.readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').split('\0').find((a) => a.endsWith('cli.js')) ?? '';
    assert.ok(museCli, 'the daemon runs a built cli.js');
  });
  after(async () => {
    events?.close();
    await tmux?.kill();
    await d?.close();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** The harness in a pane through `muster <name>` (or plain), after a first typed prompt: idle and live. */
  async function start(name: HarnessName, via: 'wrapper' | 'plain'): Promise<{ pane: Pane; session: Session }> {
    const h = envs.get(name)!;
    const env = { ...h.env, MUSTER_HOME: String(d.env.MUSTER_HOME) };
    const argv = via === 'wrapper' ? [process.execPath, museCli, name, ...h.argvPrefix] : [name, ...h.argvPrefix];
    const known = new Set((await d.listSessions()).map((s) => s.id));
    const pane = await tmux.newPane(argv, { cwd: h.cwd, env });
    if (name === 'opencode') await tmux.waitForText(pane.id, /Ask anything/, 90_000);
    if (name === 'claude') await tmux.waitForText(pane.id, /❯|>/, 60_000);
    if (name === 'codex') await tmux.waitForText(pane.id, /›|context left|send/i, 60_000);
    if (name === 'gemini') await tmux.waitForText(pane.id, /Type your message/, 60_000);
    if (name === 'copilot') await tmux.waitForText(pane.id, /Interactive ·/, 90_000);
    const first = `first prompt for ${name}`;
    await typeUntilSent(tmux, model, pane.id, first, 5, 8_000);
    const session = await d.waitFor((s) => s.harness === name && !known.has(s.id) && s.live && s.status === 'idle', 90_000, `${name} idle after its first turn`);
    return { pane, session };
  }

  /** The text blocks of a request's last user message (Claude adds reminder blocks beside the prompt). */
  const userBlocks = (r: FakeRequest): string[] => {
    const last = [...((r.body as { messages?: { role?: string; content?: unknown }[] } | undefined)?.messages ?? [])].reverse().find((m) => m.role === 'user');
    if (typeof last?.content === 'string') return [last.content];
    return Array.isArray(last?.content) ? last.content.map((b: { text?: unknown }) => (typeof b?.text === 'string' ? b.text : '')).filter(Boolean) : [];
  };
  /** Whether a request since `since` carried exactly `text` as (a block of) its last user message. */
  const reached = (text: string, since: number) => model.requests.slice(since).some((r) => !r.sideCall && userBlocks(r).includes(text));
  /** Where each text first reached the model since `since` (request index; -1 never). */
  const firstAt = (text: string, since: number) => model.requests.slice(since).findIndex((r) => !r.sideCall && userBlocks(r).includes(text));
  async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000, detail?: () => Promise<string>): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms${detail ? `\n${await detail()}` : ''}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Sends through the CLI; resolves with its envelope (asserting success). */
  async function send(id: string, text: string): Promise<Record<string, unknown>> {
    const r = await d.muster(['send', id, '--', text]);
    assert.equal(r.code, 0, `muster send: ${r.stderr}`);
    return r.json;
  }

  /** The session's status events after `mark`: it went working, then idle. */
  async function workedThenIdle(id: string, mark: number): Promise<void> {
    const after = (e: { data: Record<string, unknown> }, status: string, i: number) => i >= mark && e.data['id'] === id && e.data['status'] === status;
    const working = events.events.findIndex((e, i) => e.type === 'session.status.changed' && after(e, 'working', i));
    if (working < 0) await events.waitFor(`${id} working`, (e) => e.type === 'session.status.changed' && e.data['id'] === id && e.data['status'] === 'working' && events.events.indexOf(e) >= mark, 60_000);
    const w = events.events.findIndex((e, i) => e.type === 'session.status.changed' && after(e, 'working', i));
    await events.waitFor(`${id} idle again`, (e) => e.type === 'session.status.changed' && e.data['id'] === id && e.data['status'] === 'idle' && events.events.indexOf(e) > w, 90_000);
  }

  it('pi through `muster pi`: the extension takes the prompt from the inbox; it reaches the model; working → idle; a second one queues', { timeout: SCENARIO_MS }, async () => {
    const { session } = await start('pi', 'wrapper');
    const mark = model.requests.length;
    const ev = events.events.length;
    const r = await send(session.id, 'second prompt');
    assert.equal(r['delivered'], 'inbox');
    assert.equal(r['queued'], false);
    await until('the model got "second prompt"', () => reached('second prompt', mark));
    await workedThenIdle(session.id, ev);
    // While a slow turn runs, the next prompt is queued (followUp) and runs after it.
    const m2 = model.requests.length;
    await send(session.id, 'SLOW6 a slow turn');
    await d.waitFor((s) => s.id === session.id && s.status === 'working', 30_000, 'pi working on the slow turn');
    const queued = await send(session.id, 'queued after the slow one');
    assert.equal(queued['delivered'], 'inbox');
    assert.equal(queued['queued'], true);
    await until('the queued prompt reached the model after the slow one', () => reached('queued after the slow one', m2), 90_000);
    assert.ok(firstAt('SLOW6 a slow turn', m2) < firstAt('queued after the slow one', m2), model.requests.slice(m2).map((x) => lastUserText(x)).join(' | '));
  });

  it('OpenCode through `muster opencode`: the TUI plugin takes the prompt from the inbox; it reaches the model; working → idle', { timeout: SCENARIO_MS }, async () => {
    const { session } = await start('opencode', 'wrapper');
    const mark = model.requests.length;
    const ev = events.events.length;
    const r = await send(session.id, 'second prompt for opencode');
    assert.equal(r['delivered'], 'inbox');
    await until('the model got it', () => reached('second prompt for opencode', mark), 90_000);
    await workedThenIdle(session.id, ev);
  });

  it('`opencode serve` (no TUI, no plugin): the server takes the prompt (prompt_async), even while the session is listed dormant', { timeout: SCENARIO_MS }, async () => {
    const h = envs.get('opencode')!;
    const server = await startOpencodeServe('opencode', { cwd: h.cwd, env: h.env });
    const call = server.call;
    try {
      const id = String((await call('/session', {}))?.['id']);
      await call(`/session/${id}/prompt_async`, { parts: [{ type: 'text', text: 'hello there' }] });
      await d.waitFor((x) => x.id === id && x.promptable === true && x.status !== 'working', 60_000, 'the served session, promptable');
      const mark = model.requests.length;
      const r = await send(id, 'second prompt through the server');
      assert.equal(r['delivered'], 'server');
      await until('the model got it', () => model.requests.slice(mark).some((x) => !x.sideCall && lastUserText(x).includes('second prompt through the server')), 60_000);
    } finally {
      server.stop();
    }
  });

  it('Claude Code in tmux: typed into its verified pane; one and multi-line prompts arrive verbatim; working → idle; while working it queues', { timeout: SCENARIO_MS }, async () => {
    // Through the wrapper: its hooks report every turn's start and end, so a fast turn's working → idle is seen.
    const { pane, session } = await start('claude', 'wrapper');
    let mark = model.requests.length;
    const ev = events.events.length;
    const r = await send(session.id, 'second prompt');
    assert.equal(r['delivered'], 'pane');
    assert.deepEqual(r['pane'], { manager: 'tmux', id: pane.id, socket: tmux.socket });
    await until('the model got "second prompt"', () => reached('second prompt', mark));
    await workedThenIdle(session.id, ev);
    await d.waitFor((s) => s.id === session.id && s.status === 'idle', 30_000, 'claude idle');
    // Newlines stay inside the prompt (bracketed paste): one request, the whole text.
    const multi = 'line one $(touch x)\n  line two `id`\nline three';
    mark = model.requests.length;
    await send(session.id, multi);
    await until('the multi-line prompt reached the model whole', () => reached(multi, mark), 60_000);
    assert.equal(fs.existsSync(path.join(envs.get('claude')!.cwd, 'x')), false);
    await d.waitFor((s) => s.id === session.id && s.status === 'idle', 30_000, 'claude idle');
    // Claude's TUI queues what is typed while a turn runs, and sends it after.
    mark = model.requests.length;
    await send(session.id, 'SLOW6 a slow turn');
    await d.waitFor((s) => s.id === session.id && s.status === 'working', 30_000, 'claude working on the slow turn');
    const queued = await send(session.id, 'queued while working');
    assert.equal(queued['delivered'], 'pane');
    assert.equal(queued['queued'], true);
    await until('the queued prompt reached the model after the slow turn', () => reached('queued while working', mark), 90_000);
    assert.ok(firstAt('SLOW6 a slow turn', mark) < firstAt('queued while working', mark), model.requests.slice(mark).map((x) => lastUserText(x)).join(' | '));
  });

  it('Codex through `muster codex` (an embedded TUI: verified by its lock, never signalled): typed into its pane; it reaches the model', { timeout: SCENARIO_MS }, async () => {
    const { pane, session } = await start('codex', 'wrapper');
    assert.equal(session.canEnd, false);
    const mark = model.requests.length;
    const r = await send(session.id, 'second prompt for codex\nwith a second line');
    assert.equal(r['delivered'], 'pane');
    assert.equal((r['pane'] as { id: string }).id, pane.id);
    await until('the model got it, both lines in one prompt', () => model.requests.slice(mark).some((x) => !x.sideCall && lastUserText(x).includes('second prompt for codex\nwith a second line')), 90_000, () => tmux.capture(pane.id));
  });

  it('Codex daemon-backed TUI: the app-server daemon takes it (turn/start); working → idle; busy while in a turn; still reached once the TUI detaches', { timeout: SCENARIO_MS }, async () => {
    const h = envs.get('codex')!;
    const config = path.join(h.configDir, 'config.toml');
    const before = fs.readFileSync(config, 'utf8');
    // A plain `codex` TUI uses the shared daemon only where auto start is on (a -c override would embed it).
    fs.writeFileSync(config, before.replace('daemon_auto_start = false', 'daemon_auto_start = true'));
    // Codex speaks the Responses API: the prompt is in its last user input, not in `messages`.
    const heard = (text: string, since: number) => model.requests.slice(since).some((x) => !x.sideCall && lastUserText(x).includes(text));
    const codexBin = path.join(String(h.env['PATH']).split(path.delimiter)[0] ?? '', 'codex');
    try {
      const { pane, session } = await start('codex', 'plain');
      assert.equal(session.promptable, true, 'a thread the daemon holds is promptable');
      let mark = model.requests.length;
      let ev = events.events.length;
      // SLOW4: a turn long enough for the listing to see it working (an instant one can be missed).
      const r = await send(session.id, 'SLOW4 second prompt through the codex daemon\nwith a second line');
      assert.equal(r['delivered'], 'server');
      assert.equal(r['queued'], false);
      await until('the model got it, both lines in one prompt', () => heard('SLOW4 second prompt through the codex daemon\nwith a second line', mark), 90_000, () => tmux.capture(pane.id));
      await workedThenIdle(session.id, ev);
      await tmux.waitForText(pane.id, /second prompt through the codex daemon/, 30_000);

      // In a turn, turn/start would steer the text into it: refused as busy, nothing sent.
      await send(session.id, 'SLOW15 a slow codex turn');
      await d.waitFor((x) => x.id === session.id && x.status === 'working', 30_000, 'codex working');
      mark = model.requests.length;
      const busy = await d.muster(['send', session.id, '--', 'not while working']);
      assert.notEqual(busy.code, 0, 'refused while a turn runs');
      assert.match(`${busy.stderr}${JSON.stringify(busy.json)}`, /busy/);
      await d.waitFor((x) => x.id === session.id && x.status === 'idle', 60_000, 'codex idle after the slow turn');
      assert.equal(heard('not while working', mark), false, 'the refused text never reached the model');

      // The TUI detaches; the idle thread lingers in the daemon (listed dormant) and still takes a prompt there.
      process.kill(pane.pid, 'SIGTERM');
      await d.waitFor((x) => x.id === session.id && !x.live && x.promptable === true, 30_000, 'codex lingering in the daemon');
      mark = model.requests.length;
      ev = events.events.length;
      const lingering = await send(session.id, 'to the lingering codex thread');
      assert.equal(lingering['delivered'], 'server');
      await until('the lingering thread took it', () => heard('to the lingering codex thread', mark), 90_000);
    } finally {
      fs.writeFileSync(config, before);
      await stopCodexDaemon(h, codexBin);
    }
  });

  /** Stops the Codex daemon this CODEX_HOME started, then its updater, by the pids it recorded. */
  async function stopCodexDaemon(h: HarnessEnv, bin: string): Promise<void> {
    const pids = ['daemon.pid', 'daemon-updater.pid'].flatMap((f) => {
      try {
        const pid = (JSON.parse(fs.readFileSync(path.join(h.configDir, 'app-server-daemon', f), 'utf8')) as { pid?: number }).pid;
        // Only a process running from this test's CODEX_HOME is ours.
        const argv = typeof pid === 'number' ? fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
        return typeof pid === 'number' && argv.includes(h.configDir) ? [pid] : [];
      } catch {
        return [];
      }
    });
    await new Promise<void>((resolve) => {
      const c = spawn(bin, ['app-server', 'daemon', 'stop'], { cwd: h.cwd, env: h.env, stdio: 'ignore' });
      const t = setTimeout(() => { c.kill('SIGKILL'); resolve(); }, 20_000);
      c.on('close', () => { clearTimeout(t); resolve(); });
      c.on('error', () => { clearTimeout(t); resolve(); });
    });
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch { /* already gone */ }
    }
  }

  for (const name of ['gemini', 'copilot'] as const) {
    it(`${name} through \`muster ${name}\`: typed into its verified pane; it reaches the model; while working its TUI queues it`, { timeout: SCENARIO_MS }, async () => {
      // Gemini CLI takes no per-process settings: \`muster gemini\` needs Muster's extension installed once.
      if (name === 'gemini') assert.equal((await d.muster(['hooks', 'install', '--harness', 'gemini'])).code, 0);
      const { pane, session } = await start(name, 'wrapper');
      const mark = model.requests.length;
      const r = await send(session.id, `second prompt for ${name}\nwith a second line`);
      assert.equal(r['delivered'], 'pane');
      assert.equal((r['pane'] as { id: string }).id, pane.id);
      await until('the model got it, both lines in one prompt', () => model.requests.slice(mark).some((x) => !x.sideCall && lastUserText(x).includes(`second prompt for ${name}\nwith a second line`)), 90_000, async () => `${await tmux.capture(pane.id)}\n--- requests ---\n${model.requests.slice(mark).map((x) => JSON.stringify(lastUserText(x))).join('\n')}`);
      await d.waitFor((s) => s.id === session.id && s.status === 'idle', 60_000, `${name} idle`);
      const m2 = model.requests.length;
      await send(session.id, 'SLOW8 a slow turn');
      await d.waitFor((s) => s.id === session.id && s.status === 'working', 30_000, `${name} working`);
      const queued = await send(session.id, 'queued while working');
      assert.equal(queued['queued'], true);
      const at = (t: string) => model.requests.slice(m2).findIndex((x) => !x.sideCall && lastUserText(x).endsWith(t));
      await until('the queued prompt reached the model after the slow turn', () => at('queued while working') >= 0, 90_000, () => tmux.capture(pane.id));
      assert.ok(at('SLOW8 a slow turn') < at('queued while working'));
    });
  }

  it('a dormant Claude session is resumed in a new tmux window with the prompt, which reaches the model', { timeout: SCENARIO_MS }, async () => {
    const s = (await d.listSessions()).find((x) => x.harness === 'claude');
    assert.ok(s, 'the claude session of the previous scenario');
    const ended = await d.muster(['end', s.id]);
    assert.equal(ended.code, 0, ended.stderr);
    await d.waitFor((x) => x.id === s.id && !x.live, 30_000, 'claude dormant');
    const mark = model.requests.length;
    const r = await send(s.id, '-resumed with a prompt');
    assert.equal(r['delivered'], 'resumed');
    const resumed = (r['pane'] as { id: string }).id;
    await until('the resumed session sent the prompt', () => reached('-resumed with a prompt', mark), 120_000, async () => `--- resumed pane ---\n${await tmux.capture(resumed).catch((e: unknown) => String(e))}`);
    await d.waitFor((x) => x.id === s.id && x.live, 60_000, 'claude live again');
  });
});
