/**
 * The contract suite every harness adapter passes (one suite, every implementation). A harness's own
 * `contract.test.ts` calls `runAdapterContract` with its adapter and a fixture factory that prepares a
 * temp harness home holding at least one dormant session (and, where it can, a live one held by a real
 * child process) and returns the discovery source it built there.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionSource } from '../discovery/contract.ts';
import { createMemoryTranscriptIndex } from '../discovery/contract.ts';
import { createProc } from '../discovery/proc/index.ts';
import { createGitReader } from '../discovery/git/index.ts';
import { STATUSES } from '../core/session.ts';
import { HARNESS_NAME, type HarnessAdapter } from './adapter.ts';
import { adapterFor, HARNESSES, isHarness } from './registry.ts';
import type { LaunchContext } from '../launch/plan-types.ts';

export interface ContractFixture {
  source: SessionSource;
  /** Id of a dormant session the fixture created. */
  dormantId: string;
  /** Id of a live session, when the fixture can make one (a real child process). */
  liveId?: string;
  /** Removes temp dirs, kills children. */
  cleanup(): Promise<void>;
}

const HOSTILE_IDS = ['$(touch /tmp/x)', '../../etc', 'ses_' + 'a'.repeat(25), '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10\n', '', 'a'.repeat(200)];
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF';

function launchContext(adapter: HarnessAdapter, root: string): LaunchContext {
  const env = { HOME: root };
  return {
    harness: adapter.name as LaunchContext['harness'], launchId: 'lch_0000000000010123456789', name: 'demo', args: ['hello'], cwd: root,
    api: 'http://127.0.0.1:7000/api', mcpUrl: 'http://127.0.0.1:7000/mcp', token: TOKEN, tokenFile: path.join(root, 'token'),
    launchDir: path.join(root, 'launch'), hookArgv: ['/usr/bin/node', '/opt/muster.js', 'hook'], env, homes: adapter.homes(env),
    asset: (name) => `// asset ${name}\n`,
  };
}

function adapterChecks(adapter: HarnessAdapter): void {
  it('is in the registry under its name, with a display mark, colour and characters', () => {
    assert.match(adapter.name, HARNESS_NAME);
    assert.ok(isHarness(adapter.name) && HARNESSES.includes(adapter.name));
    assert.equal(adapterFor(adapter.name), adapter);
    assert.ok(adapter.label.length > 0 && /^[a-z][a-z0-9-]*$/.test(adapter.bin));
    assert.ok(adapter.display.mark.length >= 1 && adapter.display.mark.length <= 3);
    assert.match(adapter.display.color, /^#[0-9a-f]{6}$/i);
    assert.ok(adapter.display.critters.length >= 3 && adapter.display.dot.length > 0);
  });

  it('resolves absolute homes from HOME, and the same ones twice', () => {
    const homes = adapter.homes({ HOME: '/home/someone' });
    assert.ok(path.isAbsolute(homes.data) && path.isAbsolute(homes.config));
    assert.ok(homes.data.startsWith('/home/someone/') && homes.config.startsWith('/home/someone/'));
    assert.deepEqual(adapter.homes({ HOME: '/home/someone' }), homes);
  });

  it('refuses hostile ids everywhere an id goes', () => {
    for (const bad of HOSTILE_IDS) {
      assert.equal(adapter.isValidId(bad), false, JSON.stringify(bad));
      assert.equal(adapter.resumeArgv(bad), null, `resume argv for ${JSON.stringify(bad)}`);
    }
  });

  it('plans a launch that runs its command, keeps the token out of argv and in 0600 files only', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `muster-contract-${adapter.name}-`));
    try {
      const plan = adapter.planLaunch(launchContext(adapter, root));
      assert.equal(plan.bin, adapter.bin);
      assert.ok(!plan.argv.join(' ').includes(TOKEN), 'argv leaks the token');
      assert.ok(plan.argv.includes('hello'), "the user's arguments are passed through");
      assert.equal(plan.env.MUSTER_LAUNCH_ID, 'lch_0000000000010123456789');
      for (const f of plan.files) {
        assert.ok(f.path.startsWith(path.join(root, 'launch')), `${f.path} stays in the launch directory`);
        if (f.content.includes(TOKEN)) assert.equal(f.mode, 0o600);
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('starts a new session (muster new): the prompt one argument, a pre-assigned id the launch plan keeps', () => {
    assert.ok(adapter.startArgs, `${adapter.name} can be started by muster new`);
    const newId = '22222222-2222-4222-8222-222222222222';
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `muster-contract-${adapter.name}-`));
    try {
      for (const prompt of ['$(touch /tmp/x) `id`\nline two', '--help', '@/etc/passwd', 'mcp', 'update']) {
        const start = adapter.startArgs({ prompt, newId });
        const carrying = start.args.filter((a) => a.includes(prompt));
        assert.equal(carrying.length, 1, `${JSON.stringify(prompt)} is exactly one argument`);
        const arg = carrying[0] as string;
        // The prompt's own text follows a flag's `=`, a `--`, or a space that keeps it from reading as a flag or file.
        assert.ok(arg === prompt || arg === ` ${prompt}` || arg.endsWith(`=${prompt}`), `${JSON.stringify(arg)} carries the prompt`);
        if (arg === prompt && /^[-@]/.test(prompt)) assert.equal(start.args[start.args.indexOf(arg) - 1], '--', `${JSON.stringify(prompt)} follows --`);
        assert.ok(start.sessionId === null || (start.sessionId === newId && adapter.isValidId(newId)));
        const plan = adapter.planLaunch({ ...launchContext(adapter, root), args: start.args });
        assert.equal(plan.sessionId, start.sessionId, 'the wrapper keeps the pre-assigned id');
        assert.ok(plan.argv.includes(arg), 'the wrapper passes the prompt on untouched');
      }
      assert.deepEqual(adapter.startArgs({ prompt: null, newId }).args.filter((a) => a.includes('touch')), []);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('maps hook events without ever throwing, and unknown events to nothing', () => {
    for (const payload of [{}, { status: 'x' }, { status: { type: 42 } }, { tool_name: ['a'] }, { session_id: 7 }] as Record<string, unknown>[]) {
      for (const event of ['SessionStart', 'Stop', 'session.status', 'agent_end', 'notify', 'NoSuchEvent']) {
        const t = adapter.hooks.transition(event, payload);
        if (t) assert.ok(['working', 'waiting', 'idle', 'ended'].includes(t.status));
      }
      const id = adapter.hooks.sessionIdOf(payload);
      assert.ok(id === null || typeof id === 'string');
    }
    assert.equal(adapter.hooks.transition('NoSuchEvent', {}), null);
    if (adapter.hooks.turnEnd) assert.ok(adapter.hooks.turnEnd.event.length > 0 && adapter.hooks.turnEnd.defaultBlockCap >= 0);
  });

  it('installs into its own config home, idempotently, and removes what it added', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `muster-contract-${adapter.name}-`));
    try {
      const env = { HOME: root };
      const homes = adapter.homes(env);
      const target = adapter.installTarget({ env, homes, hookArgv: ['/usr/bin/node', '/opt/muster.js', 'hook'], asset: (n) => `// muster-status: written by \`muster\`; \`muster hooks uninstall\` removes it\n// ${n}\n` });
      assert.ok(target.edits.length > 0);
      for (const e of target.edits) {
        assert.ok(e.path.startsWith(homes.config + path.sep), `${e.path} is under ${homes.config}`);
        const once = e.add(null);
        assert.ok(e.has(once), 'has() sees what add() wrote');
        assert.equal(e.add(once), once, 'a second add changes nothing');
        const removed = e.remove(once);
        assert.ok(removed === null || !e.has(removed), 'remove() takes it out again');
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('runs headless with the prompt as data, and reads any output without throwing', () => {
    const prompt = '$(touch /tmp/x) -- --flag';
    const first = adapter.headless.command({ prompt, newId: '11111111-1111-4111-8111-111111111111' });
    assert.equal(first.argv[0], adapter.bin);
    assert.ok(first.argv.some((a) => a.includes(prompt)) || first.stdin === prompt, 'the prompt is one argument (or stdin), never split');
    const next = adapter.headless.command({ prompt: 'go on', sessionId: 'SESSION' });
    assert.ok(next.argv.includes('SESSION'), 'the next turn names the session');
    for (const out of ['', 'garbage\n{not json', '{"type":"result"}\n[1,2]\n']) {
      const r = adapter.headless.parse(out);
      assert.ok(Number.isFinite(r.tokens) && r.tokens >= 0);
    }
    if (adapter.headless.audit) {
      const a = adapter.headless.audit({ system: 'judge', prompt: 'report', model: '' });
      assert.equal(a.argv[0], adapter.bin);
    }
  });

  it('builds its discovery source lazily; an empty home lists nothing', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `muster-contract-${adapter.name}-`));
    try {
      const env = { HOME: root };
      const source = await adapter.createSource({ env, homes: adapter.homes(env), proc: createProc(), index: createMemoryTranscriptIndex(), git: createGitReader() });
      assert.equal(source.harness, adapter.name);
      assert.deepEqual(await source.list(), []);
      await source.watch(() => {})();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}

function sourceChecks(adapter: HarnessAdapter, fixture: () => Promise<ContractFixture>): void {
  it('lists sessions in the normalised shape', async () => {
    const { source } = await fixture();
    const sessions = await source.list();
    assert.ok(sessions.length >= 1, 'at least the fixture session');
    for (const s of sessions) {
      assert.equal(s.harness, adapter.name);
      assert.equal(source.harness, adapter.name);
      assert.ok(adapter.isValidId(s.id), `id ${s.id} has the harness format`);
      assert.ok(STATUSES.includes(s.status));
      assert.equal(typeof s.title, 'string');
      assert.equal(typeof s.live, 'boolean');
      if (!s.live) {
        // Dormant is `ended`, except a reply whose process died mid-turn: `stuck`, with that cause,
        // until a live process owns the session again.
        if (s.status === 'stuck') assert.ok(s.waitingFor, `a dormant stuck session ${s.id} names its cause`);
        else assert.equal(s.status, 'ended', 'a dormant session is ended, or stuck with a cause');
        assert.equal(s.canEnd, false, 'a dormant session cannot be ended');
        assert.equal(s.pid, null, 'a dormant session has no pid');
      }
      for (const k of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) {
        assert.ok(Number.isFinite(s.tokens[k]) && s.tokens[k] >= 0, `tokens.${k}`);
      }
      if (s.resumeArgv) assert.deepEqual(s.resumeArgv, adapter.resumeArgv(s.id), 'the session carries its adapter\'s resume argv');
      assert.ok(Array.isArray(s.prLinks));
    }
  });

  it('gets a dormant session by id, and unknown ids are undefined', async () => {
    const { source, dormantId } = await fixture();
    const s = await source.get(dormantId);
    assert.ok(s, 'dormant session found');
    assert.equal(s.id, dormantId);
    assert.equal(s.live, false);
    const unknown = ['00000000-0000-4000-8000-000000000000', 'ses_zzzzzzzzzzzzzzzzzzzzzzzzzz'].find((id) => adapter.isValidId(id));
    assert.ok(unknown, 'a well-formed id nobody has');
    assert.equal(await source.get(unknown), undefined);
  });

  it('refuses ids of the wrong format', async () => {
    const { source } = await fixture();
    for (const bad of HOSTILE_IDS) assert.equal(source.isValidId(bad), false, JSON.stringify(bad));
  });

  it('gives a resume argv for a dormant session, never a shell string', async () => {
    const { source, dormantId } = await fixture();
    const argv = source.resumeArgv(dormantId);
    assert.ok(argv && argv.length >= 2, 'argv array');
    assert.equal(argv[0], adapter.bin);
    assert.ok(argv.some((a) => a.includes(dormantId)), 'names the session');
  });

  it('does not end a dormant session', async () => {
    const { source, dormantId } = await fixture();
    const r = await source.end(dormantId);
    assert.notEqual(r.outcome, 'ended');
  });

  it('watch returns a disposer that stops notifications', async () => {
    const { source } = await fixture();
    const dispose = source.watch(() => {});
    assert.equal(typeof dispose, 'function');
    await dispose();
  });

  it('reports diagnostics counters', async () => {
    const { source } = await fixture();
    const d = source.diagnostics();
    assert.equal(d.harness, adapter.name);
    for (const k of ['filesScanned', 'filesSkipped', 'linesParsed', 'linesSkipped', 'notRegularFiles'] as const) assert.ok(Number.isInteger(d[k]) && d[k] >= 0, k);
  });

  it('a live session, when the fixture has one, is live with a pid', async (t) => {
    const { source, liveId } = await fixture();
    if (!liveId) {
      t.skip('fixture has no live session');
      return;
    }
    const s = await source.get(liveId);
    assert.ok(s?.live, 'live');
    assert.ok(s.pid && s.pid > 0);
    assert.notEqual(s.status, 'ended');
  });
}

export function runAdapterContract(adapter: HarnessAdapter, makeFixture: () => Promise<ContractFixture>): void {
  describe(`adapter contract: ${adapter.name}`, () => {
    let fx: ContractFixture | undefined;
    const fixture = async (): Promise<ContractFixture> => (fx ??= await makeFixture());
    after(async () => {
      await fx?.cleanup();
    });
    adapterChecks(adapter);
    sourceChecks(adapter, fixture);
  });
}
