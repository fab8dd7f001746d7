/**
 * Real-harness tier, issue 13 point 11: with the npm registry unreachable, `muster opencode` (and a
 * plain `opencode` after `muster hooks install`) draws its TUI about as soon as plain `opencode` in
 * the same setup, and Muster's status plugin still loads (its events reach the daemon).
 *
 * The regression: OpenCode 1.18.33 waits, before loading any *server* plugin, for the
 * `@opencode-ai/plugin` install it starts in every config directory; offline that install fails only
 * after npm's retries (~70 s against a refused port), so a server plugin meant a blank TUI for over a
 * minute. The time bound below leaves room for a loaded machine but not for that wait.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, startFakeModel } from '../fakes/fake-model/index.ts';
import type { FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { EventStream, HarnessCli, HarnessDaemon, HarnessEnv, Pane, Tmux } from './kit/index.ts';
import { STATUS_MARKER as MARKER } from '../../src/hooks/install/target.ts';

const SCENARIO_MS = 400_000;
/** How long a TUI may take to draw before the test gives up, ms (a hang is what this test catches). */
const DRAW_LIMIT_MS = 150_000;

/** `muster opencode` may take twice plain opencode's time plus 20 s (load noise); the npm wait alone was ~70 s. */
const bound = (plainMs: number) => 2 * plainMs + 20_000;

describe('opencode start-up with the npm registry unreachable', () => {
  let model: FakeModel;
  let cli: HarnessCli;
  let tmux: Tmux;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-oc-start-'));
  const panes: number[] = [];
  const daemons: HarnessDaemon[] = [];
  let n = 0;

  before(async () => {
    cli = await ensureHarnessCli('opencode');
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

  /** A fresh isolated home (nothing of OpenCode's installed yet), offline for npm. */
  function home(): HarnessEnv {
    const h = harnessEnv('opencode', { root: path.join(root, `s${++n}`), modelUrl: model.url, binDir: cli.binDir });
    assert.equal(h.env['npm_config_registry'], 'http://127.0.0.1:9/');
    assert.deepEqual(Object.keys(h.env).filter((k) => /proxy/i.test(k)), [], 'no proxy could reach a registry');
    assert.equal(fs.existsSync(path.join(h.home, '.npmrc')), false, 'no user npmrc names another registry');
    return h;
  }

  /** Proves the registry the env names refuses connections. */
  async function assertRegistryUnreachable(h: HarnessEnv): Promise<void> {
    const url = new URL(String(h.env['npm_config_registry']));
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname);
      socket.once('connect', () => (socket.destroy(), resolve(null)));
      socket.once('error', (e) => resolve(e));
    });
    assert.equal(error?.code, 'ECONNREFUSED', `the registry ${url.href} must be unreachable`);
  }

  /** Starts `argv` in a pane; resolves with the pane and the ms until OpenCode's prompt is drawn. */
  async function drawn(argv: string[], h: HarnessEnv, env: NodeJS.ProcessEnv = {}): Promise<{ pane: Pane; ms: number }> {
    const t0 = Date.now();
    const pane = await tmux.newPane(argv, { cwd: h.cwd, env: { ...h.env, ...env } });
    panes.push(pane.pid);
    await tmux.waitForText(pane.id, /Ask anything/, DRAW_LIMIT_MS);
    return { pane, ms: Date.now() - t0 };
  }

  async function plainMs(): Promise<number> {
    const h = home();
    const { pane, ms } = await drawn([cli.bin], h);
    process.kill(pane.pid, 'SIGTERM');
    return ms;
  }

  /** Types a prompt once the TUI takes keys, and waits for the plugin's busy → idle for its session. */
  async function statusEventsArrive(pane: Pane, events: EventStream, text: string): Promise<string> {
    await new Promise((r) => setTimeout(r, 1000)); // the TUI drops keys typed the moment it draws
    await tmux.sendKeys(pane.id, text, { literal: true });
    await new Promise((r) => setTimeout(r, 300));
    await tmux.sendKeys(pane.id, 'Enter');
    const hook = (status: string, id: string | null) => (e: { type: string; data: Record<string, unknown> }) =>
      e.type === 'hook.event.received' && e.data['harness'] === 'opencode' && e.data['status'] === status && (id === null || e.data['sessionId'] === id);
    const busy = await events.waitFor('the plugin reports busy → working', hook('working', null), 150_000).catch(async (e: unknown) => {
      throw new Error(`${(e as Error).message}\n--- pane ---\n${await tmux.capture(pane.id)}`);
    });
    const id = String(busy.data['sessionId']);
    assert.match(id, /^ses_/);
    await events.waitFor('the plugin reports idle', hook('idle', id), 90_000);
    return id;
  }

  /** OpenCode never reached a registry: its own SDK install in the global config dir did not happen. */
  function assertNothingInstalled(h: HarnessEnv): void {
    assert.equal(fs.existsSync(path.join(h.configDir, 'node_modules', '@opencode-ai', 'plugin')), false);
  }

  it('muster opencode draws as soon as plain opencode; the status plugin reports busy and idle', { timeout: SCENARIO_MS }, async () => {
    const plain = await plainMs();
    const h = home();
    await assertRegistryUnreachable(h);
    const d = await startHarnessDaemon({ homes: [h], root: path.join(root, `s${n}`) });
    daemons.push(d);
    const argv = fs.readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').split('\0');
    const muster = argv.find((a) => a.endsWith('cli.js'));
    assert.ok(muster, 'the kit daemon runs the built cli.js');
    const events = await d.events();
    const { pane, ms } = await drawn([process.execPath, muster, 'opencode'], h, { MUSTER_HOME: d.env['MUSTER_HOME'] });
    console.log(`[opencode-start] offline: plain opencode drew in ${plain} ms, muster opencode in ${ms} ms`);
    assert.ok(ms <= bound(plain), `muster opencode drew after ${ms} ms; plain opencode after ${plain} ms (bound ${bound(plain)} ms)`);
    const id = await statusEventsArrive(pane, events, 'hello from the wrapper');
    await d.waitFor((x) => x.id === id && x.live, 60_000, 'the session listed live');
    events.close();
    assertNothingInstalled(h);
  });

  it('after muster hooks install (retiring an older server plugin), plain opencode draws as soon as without it and the TUI plugin reports', { timeout: SCENARIO_MS }, async () => {
    const plain = await plainMs();
    const h = home();
    const d = await startHarnessDaemon({ homes: [h], root: path.join(root, `s${n}`) });
    daemons.push(d);
    // What `muster hooks install` wrote before: a server plugin in plugin/, which made OpenCode wait.
    const old = path.join(h.configDir, 'plugin', 'muster-status.js');
    fs.mkdirSync(path.dirname(old), { recursive: true });
    fs.writeFileSync(old, `${MARKER}\nexport const MusterStatus = async () => ({});\n`);
    const r = await d.muster(['hooks', 'install', '--harness', 'opencode']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.existsSync(old), false, 'the old server plugin is removed');
    assert.deepEqual(fs.readdirSync(path.join(h.configDir, 'plugin')), []);
    const events = await d.events();
    const { pane, ms } = await drawn([cli.bin], h, { MUSTER_HOME: d.env['MUSTER_HOME'] });
    console.log(`[opencode-start] offline after hooks install: plain opencode drew in ${plain} ms without the plugin, ${ms} ms with it`);
    assert.ok(ms <= bound(plain), `opencode with the installed plugin drew after ${ms} ms; without it after ${plain} ms (bound ${bound(plain)} ms)`);
    await statusEventsArrive(pane, events, 'hello from an ordinary start');
    events.close();
    assertNothingInstalled(h);
  });
});
