import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInstaller } from '../../hooks/install/index.ts';
import { gemini } from './index.ts';
import { EXTENSION_MARKER } from './extension.ts';

const HOOK = ['/usr/bin/node', '/opt/muster/bin/muster.js', 'hook'];

/** Every entry below `dir` (directories too), with file bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out[path.relative(dir, p)] = e.isDirectory() ? '<dir>' : fs.readFileSync(p, 'latin1');
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-gemini-install-'));
  const env = { HOME: root };
  const homes = gemini.homes(env);
  const target = gemini.installTarget({ env, homes, hookArgv: HOOK, asset: () => '' });
  return { root, homes, target, installer: createInstaller(path.join(root, '.muster', 'hooks')), cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

test('install writes the extension (MCP from the environment, the hooks), twice leaves it as it is, uninstall leaves the home byte for byte as it was', () => {
  const t = setup();
  try {
    // A home in use: settings, another extension, the enablement file.
    fs.mkdirSync(path.join(t.homes.config, 'extensions', 'other'), { recursive: true });
    fs.writeFileSync(path.join(t.homes.config, 'settings.json'), '{ "security": {"auth": {"selectedType": "gemini-api-key"}} }\n');
    fs.writeFileSync(path.join(t.homes.config, 'extensions', 'other', 'gemini-extension.json'), '{"name":"other","version":"1"}');
    const before = tree(t.homes.config);
    for (const e of t.target.edits) assert.equal(t.installer.install(e).action, 'installed');
    const manifest = JSON.parse(fs.readFileSync(path.join(t.homes.config, 'extensions', 'muster', 'gemini-extension.json'), 'utf8')) as { name: string; description: string; mcpServers: Record<string, unknown> };
    assert.equal(manifest.name, 'muster');
    assert.equal(manifest.description, EXTENSION_MARKER);
    assert.deepEqual(manifest.mcpServers.muster, {
      httpUrl: '${MUSTER_MCP_URL:-}',
      headers: { Authorization: 'Bearer ${MUSTER_MCP_TOKEN:-}', 'x-muster-session-id': '${MUSTER_SESSION_ID:-}', 'x-muster-launch-id': '${MUSTER_LAUNCH_ID:-}', 'x-muster-harness': 'gemini', 'x-muster-cwd': '${workspacePath}' },
    });
    const hooks = JSON.parse(fs.readFileSync(path.join(t.homes.config, 'extensions', 'muster', 'hooks', 'hooks.json'), 'utf8')) as { hooks: Record<string, { matcher: string; hooks: { command: string; timeout: number }[] }[]> };
    assert.deepEqual(Object.keys(hooks.hooks), ['SessionStart', 'BeforeAgent', 'BeforeTool', 'Notification', 'AfterTool', 'AfterAgent', 'SessionEnd']);
    assert.equal(hooks.hooks.AfterAgent?.[0]?.hooks[0]?.command, '/usr/bin/node /opt/muster/bin/muster.js hook gemini AfterAgent');
    assert.equal(hooks.hooks.AfterAgent?.[0]?.hooks[0]?.timeout, 600_000, 'ms: the turn end may wait for an audit');
    assert.equal(hooks.hooks.SessionStart?.[0]?.hooks[0]?.timeout, 5000);
    assert.equal(hooks.hooks.BeforeTool?.[0]?.matcher, '.*');
    assert.deepEqual(t.target.accepted(), { accepted: true, detail: t.target.accepted().detail });
    for (const e of t.target.edits) assert.equal(t.installer.install(e).action, 'already-installed');
    for (const e of [...t.target.edits].reverse()) assert.equal(t.installer.uninstall(e).action, 'restored');
    assert.deepEqual(tree(t.homes.config), before, 'the home is as it was, extensions/muster/ gone with its files');
    assert.equal(t.target.accepted().accepted, false);
  } finally {
    t.cleanup();
  }
});

test('accepted() says what keeps Gemini from running the hooks', () => {
  const t = setup();
  try {
    for (const e of t.target.edits) t.installer.install(e);
    fs.writeFileSync(path.join(t.homes.config, 'settings.json'), JSON.stringify({ hooksConfig: { enabled: false } }));
    assert.match(t.target.accepted().detail, /hooksConfig.enabled false/);
    fs.writeFileSync(path.join(t.homes.config, 'settings.json'), '{}');
    fs.writeFileSync(path.join(t.homes.config, 'extensions', 'extension-enablement.json'), JSON.stringify({ muster: { overrides: ['!/home/*'] } }));
    assert.equal(t.target.accepted().accepted, false);
  } finally {
    t.cleanup();
  }
});
