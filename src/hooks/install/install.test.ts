import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInstaller, type TargetContext } from './index.ts';
import type { Harness } from '../../core/session.ts';
import { adapterFor } from '../../harnesses/registry.ts';
import { readStatusAsset } from '../../harnesses/status-assets/index.ts';

/** A harness's install target, as `muster hooks install` builds it (the built assets from dist/). */
function targetFor(h: Harness, ctx: Pick<TargetContext, 'env' | 'hookArgv'>) {
  const a = adapterFor(h);
  return a.installTarget({ ...ctx, homes: a.homes(ctx.env), asset: (n) => readStatusAsset(n) });
}

const HOOK = ['/usr/bin/node', '/opt/muster/bin/muster.js', 'hook'];

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'muster-hooks-'));
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') };
  return { dir, env, installer: createInstaller(join(dir, '.muster', 'hooks')), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// Odd but valid formatting, so a re-serialisation could never reproduce it by accident.
const ORIGINAL = '{ "model": "opus",\n  "hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "/home/u/bin/mine.sh"}]}]}\n}\n';

test('Claude: install merges beside existing hooks, twice leaves one copy, uninstall restores the original bytes', () => {
  const t = setup();
  try {
    const settings = join(t.dir, '.claude', 'settings.json');
    mkdirSync(join(t.dir, '.claude'));
    writeFileSync(settings, ORIGINAL);
    const target = targetFor('claude', { env: t.env, hookArgv: HOOK });
    const [edit] = target.edits;
    assert.equal(t.installer.install(edit!).action, 'installed');
    const once = readFileSync(settings, 'utf8');
    assert.equal(t.installer.install(edit!).action, 'already-installed');
    assert.equal(readFileSync(settings, 'utf8'), once, 'idempotent');
    const doc = JSON.parse(once) as { model: string; hooks: Record<string, { hooks: { command: string }[] }[]> };
    assert.equal(doc.model, 'opus');
    assert.equal(doc.hooks.Stop?.length, 2, 'the user hook stays, ours is added once');
    assert.equal(doc.hooks.Stop?.[0]?.hooks[0]?.command, '/home/u/bin/mine.sh');
    assert.equal(doc.hooks.Stop?.[1]?.hooks[0]?.command, '/usr/bin/node /opt/muster/bin/muster.js hook claude Stop');
    assert.equal(target.accepted().accepted, true);
    assert.equal(t.installer.uninstall(edit!).action, 'restored');
    assert.equal(readFileSync(settings, 'utf8'), ORIGINAL, 'byte-identical');
    assert.equal(t.installer.uninstall(edit!).action, 'not-installed');
  } finally {
    t.cleanup();
  }
});

test('Claude: a file edited after install loses only our entries; a file that did not exist is removed again', () => {
  const t = setup();
  try {
    const settings = join(t.dir, '.claude', 'settings.json');
    const [edit] = targetFor('claude', { env: t.env, hookArgv: HOOK }).edits;
    t.installer.install(edit!);
    const doc = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>;
    writeFileSync(settings, JSON.stringify({ ...doc, theme: 'dark' }));
    assert.equal(t.installer.uninstall(edit!).action, 'removed-entries');
    assert.deepEqual(JSON.parse(readFileSync(settings, 'utf8')), { theme: 'dark' });
    rmSync(settings);
    t.installer.install(edit!);
    assert.equal(t.installer.uninstall(edit!).action, 'restored');
    assert.equal(existsSync(settings), false);
  } finally {
    t.cleanup();
  }
});

test('the directories install created for a new file go with it, unless something else was put there', () => {
  const t = setup();
  try {
    const file = join(t.dir, 'a', 'b', 'c.json');
    const edit = { path: file, add: () => '{}\n', remove: () => null, has: (c: string | null) => c !== null };
    assert.equal(t.installer.install(edit).action, 'installed');
    assert.equal(t.installer.uninstall(edit).action, 'restored');
    assert.equal(existsSync(join(t.dir, 'a')), false, 'a/b/ and a/ were created by install and are gone again');
    t.installer.install(edit);
    writeFileSync(join(t.dir, 'a', 'mine.txt'), 'kept');
    t.installer.uninstall(edit);
    assert.equal(existsSync(join(t.dir, 'a', 'b')), false);
    assert.equal(readFileSync(join(t.dir, 'a', 'mine.txt'), 'utf8'), 'kept', 'a directory holding something else stays');
  } finally {
    t.cleanup();
  }
});

test('a malformed settings file is reported and left untouched', () => {
  const t = setup();
  try {
    const settings = join(t.dir, '.claude', 'settings.json');
    mkdirSync(join(t.dir, '.claude'));
    const bad = '{ "hooks": { "Stop": [ }\n';
    writeFileSync(settings, bad);
    const [edit] = targetFor('claude', { env: t.env, hookArgv: HOOK }).edits;
    const r = t.installer.install(edit!);
    assert.equal(r.action, 'malformed');
    assert.match(r.message ?? '', /not valid JSON/);
    assert.equal(readFileSync(settings, 'utf8'), bad);
    assert.equal(t.installer.status(edit!), 'malformed');
  } finally {
    t.cleanup();
  }
});

test('Codex: hooks.json and notify added, trust reported missing, both restored exactly; a user notify is kept', () => {
  const t = setup();
  try {
    const codex = join(t.dir, '.codex');
    mkdirSync(codex);
    const config = 'model = "fake"\n\n[projects."/w"]\ntrust_level = "trusted"\n';
    writeFileSync(join(codex, 'config.toml'), config);
    const target = targetFor('codex', { env: t.env, hookArgv: HOOK });
    for (const e of target.edits) assert.equal(t.installer.install(e).action, 'installed');
    assert.match(readFileSync(join(codex, 'config.toml'), 'utf8'), /^notify = \["\/usr\/bin\/node", "\/opt\/muster\/bin\/muster.js", "hook", "codex", "notify"\]/);
    const hooks = JSON.parse(readFileSync(join(codex, 'hooks.json'), 'utf8')) as { hooks: Record<string, unknown[]> };
    assert.ok(hooks.hooks.PermissionRequest && hooks.hooks.Stop);
    const acc = target.accepted();
    assert.equal(acc.accepted, false);
    assert.match(acc.detail, /0\/8 hooks trusted/);
    for (const e of target.edits) assert.equal(t.installer.uninstall(e).action, 'restored');
    assert.equal(readFileSync(join(codex, 'config.toml'), 'utf8'), config);
    assert.equal(existsSync(join(codex, 'hooks.json')), false);
    const mine = 'notify = ["/home/u/notify.sh"]\n';
    writeFileSync(join(codex, 'config.toml'), mine);
    const notify = target.edits[1]!;
    t.installer.install(notify);
    assert.equal(readFileSync(join(codex, 'config.toml'), 'utf8'), mine, 'the user notify is never replaced');
  } finally {
    t.cleanup();
  }
});

test('pi/omp extensions are files Muster owns: written, recognised, deleted', () => {
  const t = setup();
  try {
    for (const h of ['pi', 'omp'] as const) {
      const target = targetFor(h, { env: t.env, hookArgv: HOOK });
      const [edit] = target.edits;
      assert.equal(t.installer.install(edit!).action, 'installed');
      assert.equal(t.installer.install(edit!).action, 'already-installed');
      assert.equal(target.accepted().accepted, true);
      assert.equal(readFileSync(edit!.path, 'utf8'), readStatusAsset(`${h}-extension`), 'the built extension, for this harness');
      assert.match(readFileSync(edit!.path, 'utf8'), new RegExp(`reportEvent\\("${h}", "session_start"`));
      assert.equal(t.installer.uninstall(edit!).action, 'restored');
      assert.equal(existsSync(edit!.path), false);
    }
  } finally {
    t.cleanup();
  }
});

test('OpenCode: a TUI plugin listed in tui.json beside the user\'s plugins, nothing in plugin/ (a server plugin makes OpenCode wait for npm); uninstall restores the bytes', () => {
  const t = setup();
  try {
    const dir = join(t.dir, '.config', 'opencode');
    mkdirSync(dir, { recursive: true });
    const tui = join(dir, 'tui.json');
    const mine = '{ "theme": "tokyonight",\n  "plugin": ["my-tui-plugin", ["./local.js", {"x": 1}]] }\n';
    writeFileSync(tui, mine);
    const target = targetFor('opencode', { env: t.env, hookArgv: HOOK });
    assert.deepEqual(target.edits.map((e) => e.path), [join(dir, 'muster-status.js'), tui]);
    for (const e of target.edits) assert.equal(t.installer.install(e).action, 'installed');
    for (const e of target.edits) assert.equal(t.installer.install(e).action, 'already-installed');
    const doc = JSON.parse(readFileSync(tui, 'utf8')) as { theme: string; plugin: unknown[] };
    assert.equal(doc.theme, 'tokyonight');
    assert.deepEqual(doc.plugin, ['my-tui-plugin', ['./local.js', { x: 1 }], './muster-status.js']);
    assert.equal(readFileSync(join(dir, 'muster-status.js'), 'utf8'), readStatusAsset('opencode-plugin'));
    assert.match(readFileSync(join(dir, 'muster-status.js'), 'utf8'), /id: "muster-status",\n {2}tui: /);
    assert.equal(existsSync(join(dir, 'plugin')), false, 'no server plugin');
    assert.equal(target.accepted().accepted, true);
    for (const e of target.edits) assert.equal(t.installer.uninstall(e).action, 'restored');
    assert.equal(readFileSync(tui, 'utf8'), mine, 'byte-identical');
    assert.equal(existsSync(join(dir, 'muster-status.js')), false);

    // No tui.json yet: one is created, and removed again on uninstall.
    rmSync(tui);
    for (const e of target.edits) t.installer.install(e);
    assert.deepEqual(JSON.parse(readFileSync(tui, 'utf8')), { $schema: 'https://opencode.ai/tui.json', plugin: ['./muster-status.js'] });
    for (const e of target.edits) t.installer.uninstall(e);
    assert.equal(existsSync(tui), false);
    // A tui.json that is not plain JSON (OpenCode also takes comments) is refused untouched.
    writeFileSync(tui, '{ // mine\n}\n');
    assert.equal(t.installer.install(target.edits[1]!).action, 'malformed');
    assert.equal(readFileSync(tui, 'utf8'), '{ // mine\n}\n');
    // The server plugin earlier versions installed in plugin/ is retired: removed, and only if it is Muster's.
    assert.deepEqual(target.retired?.map((e) => e.path), [join(dir, 'plugin', 'muster-status.js')]);
  } finally {
    t.cleanup();
  }
});
