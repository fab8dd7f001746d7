import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUuid } from '../../core/ids.ts';
import type { LaunchContext } from '../../launch/plan-types.ts';
import { gemini } from './index.ts';
import { geminiSessionFor, planGemini } from './launch.ts';
import { EXTENSION_MARKER } from './extension.ts';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF';
const ID = '11111111-2222-4333-8444-555555555555';

function ctx(args: string[], env: NodeJS.ProcessEnv = { HOME: '/home/u' }): LaunchContext {
  return {
    harness: 'gemini', launchId: 'lch_0000000000010123456789', name: 'demo', args, cwd: '/w', api: 'http://127.0.0.1:7000/api', mcpUrl: 'http://127.0.0.1:7000/mcp',
    token: TOKEN, tokenFile: '/m/token', launchDir: '/m/launch/x', hookArgv: ['/usr/bin/node', '/opt/muster.js', 'hook'], env, homes: gemini.homes(env), asset: () => '',
  };
}

test('muster gemini: a pre-assigned session id, the extension\'s environment, the token never in argv', () => {
  const plan = planGemini(ctx(['-m', 'gemini-2.5-pro']));
  assert.equal(plan.bin, 'gemini');
  assert.equal(plan.argv[0], '--session-id');
  assert.ok(plan.sessionId && isUuid(plan.sessionId));
  assert.deepEqual(plan.argv, ['--session-id', plan.sessionId, '-m', 'gemini-2.5-pro']);
  assert.deepEqual(plan.env, {
    MUSTER_LAUNCH_ID: 'lch_0000000000010123456789', MUSTER_URL: 'http://127.0.0.1:7000/api', MUSTER_TOKEN_FILE: '/m/token',
    MUSTER_MCP_URL: 'http://127.0.0.1:7000/mcp', MUSTER_MCP_TOKEN: TOKEN, MUSTER_SESSION_ID: plan.sessionId,
  });
  assert.ok(!plan.argv.join(' ').includes(TOKEN));
  assert.deepEqual(plan.files, []);
  assert.deepEqual(plan.requires?.map((r) => [r.path, r.contains]), [
    ['/home/u/.gemini/extensions/muster/gemini-extension.json', EXTENSION_MARKER],
    ['/home/u/.gemini/extensions/muster/hooks/hooks.json', EXTENSION_MARKER],
  ]);
  assert.match(plan.requires?.[0]?.fix ?? '', /muster hooks install --harness gemini/);
});

test('the session is the one given or resumed by id; none up front for `--resume latest` or a subcommand', () => {
  assert.deepEqual(geminiSessionFor(['--session-id', ID.toUpperCase()]), { id: ID, assign: false });
  assert.deepEqual(geminiSessionFor(['--resume', ID]), { id: ID, assign: false });
  assert.deepEqual(geminiSessionFor([`-r=${ID}`]), { id: ID, assign: false });
  assert.deepEqual(geminiSessionFor(['--resume', 'latest']), { id: null, assign: false });
  assert.deepEqual(geminiSessionFor(['extensions', 'list']), { id: null, assign: false });
  assert.deepEqual(geminiSessionFor(['--list-sessions']), { id: null, assign: false });
  assert.deepEqual(geminiSessionFor(['--session-file', 'old.json']), { id: null, assign: false });
  assert.equal(planGemini(ctx(['--resume', ID])).env.MUSTER_SESSION_ID, ID);
  assert.equal(planGemini(ctx(['--resume', 'latest'])).env.MUSTER_SESSION_ID, '');
  assert.deepEqual(planGemini(ctx(['--', '--session-id'])).argv.slice(2), ['--', '--session-id'], 'after -- it is the user\'s text');
});

test('GEMINI_CLI_HOME moves the whole Gemini home, extension included', () => {
  assert.deepEqual(gemini.homes({ HOME: '/home/u', GEMINI_CLI_HOME: '/g' }), { data: '/g/.gemini', config: '/g/.gemini' });
  assert.equal(planGemini(ctx([], { HOME: '/home/u', GEMINI_CLI_HOME: '/g' })).requires?.[0]?.path, '/g/.gemini/extensions/muster/gemini-extension.json');
});
