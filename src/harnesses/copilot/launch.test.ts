import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copilot } from './index.ts';
import { planCopilot } from './launch.ts';
import type { LaunchContext } from '../../launch/plan-types.ts';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF';
const ID = '0b8b9c36-4f7e-4b11-9a55-3c0e1f2a7d10';

function ctx(args: string[], name: string | null = 'demo'): LaunchContext {
  const env = { HOME: '/home/u' };
  return {
    harness: 'copilot', launchId: 'lch_0000000000010123456789', name, args, cwd: '/home/u/p', api: 'http://127.0.0.1:7000/api', mcpUrl: 'http://127.0.0.1:7000/mcp',
    token: TOKEN, tokenFile: '/home/u/.muster/token', launchDir: '/home/u/.muster/launch/lch_0000000000010123456789', hookArgv: ['/usr/bin/node', '/opt/muster.js', 'hook'],
    env, homes: copilot.homes(env), asset: () => '',
  };
}

test('a new session: MCP from a 0600 file, hooks from a plugin folder, a pre-assigned id and the name; user args last', () => {
  const plan = planCopilot(ctx(['--model', 'gpt-5']));
  const dir = '/home/u/.muster/launch/lch_0000000000010123456789';
  const id = plan.sessionId!;
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.deepEqual(plan.argv, ['--additional-mcp-config', `@${dir}/mcp.json`, '--allow-tool=muster', '--plugin-dir', `${dir}/plugin`, '--session-id', id, '--name', 'demo', '--model', 'gpt-5']);
  assert.deepEqual(plan.files.map((f) => [f.path, f.mode]), [[`${dir}/mcp.json`, 0o600], [`${dir}/plugin/plugin.json`, 0o600], [`${dir}/plugin/hooks/hooks.json`, 0o600]]);
  const mcp = JSON.parse(plan.files[0]!.content) as { mcpServers: { muster: { type: string; url: string; headers: Record<string, string> } } };
  assert.deepEqual(mcp.mcpServers.muster.headers, {
    Authorization: `Bearer ${TOKEN}`, 'x-muster-launch-id': 'lch_0000000000010123456789', 'x-muster-harness': 'copilot', 'x-muster-cwd': '/home/u/p', 'x-muster-session-id': id,
  });
  assert.equal(JSON.parse(plan.files[1]!.content).hooks, 'hooks/hooks.json');
  const hooks = JSON.parse(plan.files[2]!.content) as { version: number; hooks: Record<string, { type: string; bash: string; timeoutSec: number }[]> };
  assert.equal(hooks.version, 1);
  assert.deepEqual(hooks.hooks.agentStop, [{ type: 'command', bash: '/usr/bin/node /opt/muster.js hook copilot agentStop', timeoutSec: 600 }]);
  assert.equal(hooks.hooks.userPromptSubmitted?.[0]?.timeoutSec, 5);
  assert.ok(!plan.argv.join(' ').includes(TOKEN));
  assert.equal(plan.env.MUSTER_LAUNCH_ID, 'lch_0000000000010123456789');
});

test('resuming keeps the session\'s id (no new id, no name); a user --session-id or --name wins', () => {
  for (const args of [[`--resume=${ID}`], ['--resume', ID], ['-r', ID]]) {
    const plan = planCopilot(ctx(args));
    assert.equal(plan.sessionId, ID);
    assert.ok(!plan.argv.includes('--session-id') && !plan.argv.includes('--name'), args.join(' '));
  }
  assert.equal(planCopilot(ctx(['--continue'])).sessionId, null);
  assert.equal(planCopilot(ctx(['--resume', 'my session'])).sessionId, null);
  const given = planCopilot(ctx(['--session-id', ID, '-n', 'mine']));
  assert.equal(given.sessionId, ID);
  assert.deepEqual(given.argv.slice(5), ['--session-id', ID, '-n', 'mine'], 'only the user\'s own');
});
