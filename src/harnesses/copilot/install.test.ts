import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInstaller } from '../../hooks/install/engine.ts';
import { copilot } from './index.ts';

const HOOK = ['/usr/bin/node', '/opt/muster/bin/muster.js', 'hook'];
// Copilot's own entry shape, with odd formatting a re-serialisation could never reproduce by accident.
const ORIGINAL = '{ "model": "gpt-5",\n  "hooks": {"agentStop": [{"type": "command", "bash": "/home/u/bin/mine.sh", "timeoutSec": 30}]}\n}\n';

test('Copilot: install merges into settings.json beside the user\'s hook, twice leaves one copy, uninstall restores the bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-copilot-hooks-'));
  try {
    const env = { HOME: dir, COPILOT_HOME: join(dir, 'cop') };
    mkdirSync(env.COPILOT_HOME);
    const settings = join(env.COPILOT_HOME, 'settings.json');
    writeFileSync(settings, ORIGINAL);
    const installer = createInstaller(join(dir, '.muster', 'hooks'));
    const target = copilot.installTarget({ env, homes: copilot.homes(env), hookArgv: HOOK, asset: () => '' });
    const [edit] = target.edits;
    assert.equal(edit?.path, settings, 'COPILOT_HOME is honoured');
    assert.equal(installer.install(edit!).action, 'installed');
    const once = readFileSync(settings, 'utf8');
    assert.equal(installer.install(edit!).action, 'already-installed');
    assert.equal(readFileSync(settings, 'utf8'), once);
    const doc = JSON.parse(once) as { model: string; hooks: Record<string, { bash: string; timeoutSec: number }[]> };
    assert.equal(doc.model, 'gpt-5');
    assert.deepEqual(doc.hooks.agentStop?.map((e) => [e.bash, e.timeoutSec]), [['/home/u/bin/mine.sh', 30], ['/usr/bin/node /opt/muster/bin/muster.js hook copilot agentStop', 600]]);
    assert.deepEqual(Object.keys(doc.hooks).sort(), ['agentStop', 'notification', 'postToolUse', 'postToolUseFailure', 'preToolUse', 'sessionEnd', 'sessionStart', 'userPromptSubmitted']);
    assert.equal(target.accepted().accepted, true);
    assert.equal(installer.uninstall(edit!).action, 'restored');
    assert.equal(readFileSync(settings, 'utf8'), ORIGINAL, 'byte-identical');
    writeFileSync(settings, '{ "hooks": [] }');
    assert.equal(installer.install(edit!).action, 'malformed');
    assert.equal(readFileSync(settings, 'utf8'), '{ "hooks": [] }', 'left untouched');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
