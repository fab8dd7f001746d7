import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planLaunch, splitWrapperArgs } from './plan.ts';
import type { LaunchContext } from './plan-types.ts';
import type { Harness } from '../core/session.ts';
import { adapterFor } from '../harnesses/registry.ts';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789';

/** Stands in for a built status asset (the real ones are bundled by the build). */
const asset = (name: string): string => `// asset ${name}\n`;

function ctx(harness: Harness, over: Partial<LaunchContext> = {}): LaunchContext {
  const env = over.env ?? { HOME: '/nonexistent' };
  return {
    harness, launchId: 'lch_0000000000010123456789', name: null, args: [], cwd: '/w/p', api: 'http://127.0.0.1:7000/api', mcpUrl: 'http://127.0.0.1:7000/mcp',
    token: TOKEN, tokenFile: '/m/token', launchDir: '/m/launch/lch_1', hookArgv: ['/usr/bin/node', '/opt/muster.js', 'hook'], env,
    homes: adapterFor(harness).homes(env), asset, ...over,
  };
}

test('the token never appears in any harness argv', () => {
  for (const h of ['claude', 'codex', 'opencode', 'pi', 'omp'] as const) {
    const p = planLaunch(ctx(h, { name: 'demo', args: ['hello'] }));
    assert.ok(!p.argv.join(' ').includes(TOKEN), `${h} argv leaks the token`);
    assert.equal(p.env.MUSTER_LAUNCH_ID, 'lch_0000000000010123456789');
    for (const f of p.files) if (f.content.includes(TOKEN)) assert.equal(f.mode, 0o600);
  }
});

test('claude: mcp-config and settings files, a pre-assigned session id in the MCP headers, -n NAME, user args last', () => {
  const p = planLaunch(ctx('claude', { name: 'demo', args: ['-p', 'hi'] }));
  assert.deepEqual(p.argv.slice(0, 4), ['--mcp-config', '/m/launch/lch_1/mcp.json', '--settings', '/m/launch/lch_1/settings.json']);
  assert.match(p.sessionId ?? '', /^[0-9a-f-]{36}$/);
  assert.deepEqual(p.argv.slice(4), ['--session-id', p.sessionId, '-n', 'demo', '-p', 'hi']);
  const mcp = JSON.parse(p.files[0]!.content) as { mcpServers: { muster: { headers: Record<string, string> } } };
  assert.equal(mcp.mcpServers.muster.headers['x-muster-session-id'], p.sessionId);
  assert.equal(mcp.mcpServers.muster.headers.Authorization, `Bearer ${TOKEN}`);
  const settings = JSON.parse(p.files[1]!.content) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  assert.equal(settings.hooks.Stop?.[0]?.hooks[0]?.command, '/usr/bin/node /opt/muster.js hook claude Stop');
  // Resuming keeps the old id and assigns none; the user's own -n wins.
  const r = planLaunch(ctx('claude', { name: 'x', args: ['--resume', '11111111-1111-4111-8111-111111111111', '-n', 'mine'] }));
  assert.equal(r.sessionId, '11111111-1111-4111-8111-111111111111');
  assert.ok(!r.argv.includes('--session-id') && r.argv.filter((a) => a === '-n').length === 1);
});

test('codex: -c MCP url, token via env var, identity headers, notify unless the user has one', () => {
  const p = planLaunch(ctx('codex', { args: ['exec', 'hi'] }));
  assert.ok(p.argv.includes('mcp_servers.muster.bearer_token_env_var="MUSTER_MCP_TOKEN"'));
  assert.equal(p.env.MUSTER_MCP_TOKEN, TOKEN);
  assert.ok(p.argv.some((a) => a.startsWith('mcp_servers.muster.http_headers={"x-muster-launch-id"="lch_')));
  assert.ok(p.argv.includes('notify=["/usr/bin/node","/opt/muster.js","hook","codex","notify"]'));
  assert.deepEqual(p.argv.slice(-2), ['exec', 'hi']);
  const home = mkdtempSync(join(tmpdir(), 'muster-codex-'));
  try {
    writeFileSync(join(home, 'config.toml'), 'notify = ["/x"]\n[tui]\n');
    const q = planLaunch(ctx('codex', { env: { CODEX_HOME: home } }));
    assert.ok(!q.argv.some((a) => a.startsWith('notify=')));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('opencode keeps the user OPENCODE_CONFIG_CONTENT and adds the muster server; pi/omp load the extension', () => {
  const p = planLaunch(ctx('opencode', { env: { OPENCODE_CONFIG_CONTENT: '{"autoupdate":false,"mcp":{"mine":{"type":"local"}}}' } }));
  const cfg = JSON.parse(p.env.OPENCODE_CONFIG_CONTENT!) as { autoupdate: boolean; mcp: Record<string, { headers?: Record<string, string> }> };
  assert.equal(cfg.autoupdate, false);
  assert.ok(cfg.mcp.mine);
  assert.equal(cfg.mcp.muster?.headers?.['x-muster-harness'], 'opencode');
  // The status plugin is a TUI plugin named by OPENCODE_TUI_CONFIG: no config directory is added,
  // so OpenCode installs nothing for it (a server plugin would make start-up wait for npm).
  assert.equal(p.env.OPENCODE_CONFIG_DIR, undefined);
  assert.equal(p.env.OPENCODE_TUI_CONFIG, '/m/launch/lch_1/opencode/tui.json');
  assert.deepEqual(p.files.map((f) => [f.path, f.mode]), [['/m/launch/lch_1/opencode/muster-status.js', 0o600], ['/m/launch/lch_1/opencode/tui.json', 0o600]]);
  assert.deepEqual(JSON.parse(p.files[1]!.content), { plugin: ['./muster-status.js'] });
  assert.equal(p.files[0]!.content, asset('opencode-plugin'), 'the built TUI plugin');
  const mine = planLaunch(ctx('opencode', { env: { OPENCODE_TUI_CONFIG: '/home/u/tui.json' } }));
  assert.equal(mine.env.OPENCODE_TUI_CONFIG, undefined, "the user's own TUI config is never replaced");
  assert.deepEqual(mine.files, []);
  for (const h of ['pi', 'omp'] as const) {
    const q = planLaunch(ctx(h, { args: ['-p', 'x'] }));
    assert.deepEqual(q.argv, ['-e', '/m/launch/lch_1/muster-status.ts', '-p', 'x']);
  }
});

test('--name is the wrapper\'s (first, before --); everything else passes through', () => {
  assert.deepEqual(splitWrapperArgs(['--name', 'demo', '-p', 'hi']), { name: 'demo', rest: ['-p', 'hi'] });
  assert.deepEqual(splitWrapperArgs(['-p', '--name=x']), { name: 'x', rest: ['-p'] });
  assert.deepEqual(splitWrapperArgs(['--', '--name', 'y']), { name: null, rest: ['--', '--name', 'y'] });
});
