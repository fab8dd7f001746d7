/**
 * Real-harness tier for `muster new`'s per-harness first prompt (issue 21, point 1): each pinned CLI is
 * started by a real daemon through the wrapper in a private tmux server, with a first prompt that starts
 * with '-' and carries shell syntax; the fake model must receive it verbatim, which proves that the
 * adapter's `startArgs` put it where the interactive CLI reads a prompt (claude `-- <prompt>`, codex
 * `-- <prompt>`, opencode `--prompt=`, pi a positional message led by a space, gemini `--prompt-interactive=`,
 * copilot `--interactive=`). Where the CLI takes an id for a new session, the session is listed live under
 * the id Muster gave it. omp shares pi's start arguments.
 *
 * One HOME for all (one daemon reads them all), each harness in its own project directory; `muster new`
 * passes no model flags, so each runs on its seeded default (Gemini CLI's default model name is answered
 * by the fake model like any other).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keywordHandler, lastUserText, startFakeModel, type FakeModel } from '../fakes/fake-model/index.ts';
import { ensureHarnessCli, harnessEnv, startHarnessDaemon, startTmux } from './kit/index.ts';
import type { HarnessDaemon, HarnessEnv, Tmux } from './kit/index.ts';

const NAMES = ['claude', 'codex', 'opencode', 'pi', 'gemini', 'copilot'] as const;
type Name = (typeof NAMES)[number];
/** Harnesses whose interactive CLI takes a new session's id. */
const PRE_ASSIGNED = new Set<Name>(['claude', 'gemini', 'copilot']);
const SCENARIO_MS = 150_000;

describe('muster new: the first prompt reaches each harness verbatim (real CLIs, fake model, private tmux)', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'muster-harness-new-prompts-')));
  const homes = {} as Record<Name, HarnessEnv>;
  let model: FakeModel;
  let tmux: Tmux;
  let d: HarnessDaemon;

  before(async () => {
    model = await startFakeModel();
    model.onRequest(keywordHandler());
    tmux = await startTmux(path.join(root, 'tmux'));
    const bins: string[] = [];
    for (const name of NAMES) {
      const cli = await ensureHarnessCli(name);
      homes[name] = harnessEnv(name, { root, modelUrl: model.url, binDir: cli.binDir, cwd: path.join(root, `proj-${name}`) });
      bins.push(cli.binDir);
    }
    // What `--provider fakeoai --model fake-model` would say, as pi's own defaults.
    fs.writeFileSync(path.join(homes.pi.configDir, 'settings.json'), JSON.stringify({ defaultProvider: 'fakeoai', defaultModel: 'fake-model' }));
    // One environment for the daemon, hence for every harness it starts: all their settings, every bin on PATH.
    const env: NodeJS.ProcessEnv = Object.assign({}, ...NAMES.map((n) => homes[n].env));
    env.PATH = [...bins, process.env.PATH].join(path.delimiter);
    d = await startHarnessDaemon({ homes: Object.values(homes), root, env: { ...env, MUSTER_TMUX_SOCKET: tmux.socket } });
    // Gemini CLI takes no per-process settings: the wrapper needs Muster's extension installed once.
    const installed = await d.muster(['hooks', 'install', '--harness', 'gemini']);
    assert.equal(installed.code, 0, installed.stderr);
  });

  after(async () => {
    // End what was started with each harness's clean signal first: Gemini CLI's loader ignores the SIGHUP
    // tmux sends and Copilot's native CLI outlives its loader, and either would write into the temp dir late.
    if (d) {
      for (const s of (await d.listSessions()).filter((x) => x.live)) await d.muster(['end', s.id]).catch(() => undefined);
      await d.waitForList((l) => !l.some((x) => x.live), 30_000, 'every started session ended').catch(() => undefined);
    }
    await d?.close();
    await tmux?.kill();
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  for (const name of NAMES) {
    it(`${name}: the prompt arrives as typed${PRE_ASSIGNED.has(name) ? ', and the session is listed under the id Muster gave it' : ''}`, { timeout: SCENARIO_MS }, async () => {
      const prompt = `-x PROMPT-${name} $(touch pwned) "quoted"`;
      const r = await d.muster(['new', name, '--cwd', homes[name].cwd, '--name', `first-${name}`, `--prompt=${prompt}`, '--json']);
      assert.equal(r.code, 0, `${r.stderr}\n${r.stdout}`);
      const pane = (r.json['pane'] as { id: string }).id;
      try {
        await model.waitForRequest((q) => lastUserText(q).includes(`PROMPT-${name}`), 120_000);
      } catch (e) {
        throw new Error(`${(e as Error).message}\nscreen:\n${await tmux.capture(pane)}`);
      }
      const seen = model.requests.map((q) => lastUserText(q)).filter((t) => t.includes(`PROMPT-${name}`));
      // Claude Code and Copilot put their own reminders before the operator's text in the same message.
      assert.ok(seen.some((t) => t.trim() === prompt || t.trimEnd().endsWith(`\n\n${prompt}`)), `verbatim: ${JSON.stringify(seen)}`);
      assert.equal(fs.existsSync(path.join(homes[name].cwd, 'pwned')), false);
      const id = r.json['sessionId'];
      if (PRE_ASSIGNED.has(name)) {
        assert.equal(typeof id, 'string');
        await d.waitFor((s) => s.id === id && s.live, 60_000, `${name} listed live under its pre-assigned id`);
      } else assert.equal(id, null);
    });
  }
});
