import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FAKE_ANTHROPIC_KEY, harnessEnv } from './harness-env.ts';

function withRoot(fn: (root: string) => void): void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-env-'));
  try {
    fn(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const modelUrl = 'http://127.0.0.1:45678';

test('every env is isolated: HOME and XDG under root, no inherited secrets, bin dir first on PATH', () =>
  withRoot((root) => {
    process.env['ANTHROPIC_API_KEY_LEAK_PROBE'] = 'x';
    try {
      for (const name of ['claude', 'codex', 'opencode', 'pi', 'omp'] as const) {
        const h = harnessEnv(name, { root: path.join(root, name), modelUrl, binDir: '/opt/fake-bin' });
        assert.equal(h.env['HOME'], h.home);
        assert.ok(h.home.startsWith(root), `${name} home under root`);
        assert.ok(h.configDir.startsWith(h.home), `${name} config under home`);
        assert.ok(fs.statSync(h.cwd).isDirectory());
        for (const key of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME']) assert.ok(String(h.env[key]).startsWith(h.home), `${name} ${key}`);
        assert.equal(h.env['ANTHROPIC_API_KEY_LEAK_PROBE'], undefined);
        assert.ok(String(h.env['PATH']).startsWith('/opt/fake-bin:'));
      }
    } finally {
      delete process.env['ANTHROPIC_API_KEY_LEAK_PROBE'];
    }
  }));

test('claude: CLAUDE_CONFIG_DIR with a seeded .claude.json trusting the project and approving the key', () =>
  withRoot((root) => {
    const h = harnessEnv('claude', { root, modelUrl });
    assert.equal(h.env['CLAUDE_CONFIG_DIR'], h.configDir);
    assert.equal(h.env['ANTHROPIC_BASE_URL'], modelUrl);
    assert.equal(h.env['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'], '1');
    assert.equal(h.env['IS_SANDBOX'], process.getuid?.() === 0 ? '1' : undefined);
    const seed = JSON.parse(fs.readFileSync(path.join(h.configDir, '.claude.json'), 'utf8'));
    assert.equal(seed.hasCompletedOnboarding, true);
    assert.deepEqual(seed.customApiKeyResponses.approved, [FAKE_ANTHROPIC_KEY.slice(-20)]);
    assert.equal(seed.projects[h.cwd].hasTrustDialogAccepted, true);
    assert.equal(fs.statSync(String(h.env['CLAUDE_CODE_TMPDIR'])).mode & 0o777, 0o700);
  }));

test('codex: CODEX_HOME/config.toml with a responses provider on the fake, trusted project, no daemon', () =>
  withRoot((root) => {
    const h = harnessEnv('codex', { root, modelUrl });
    assert.equal(h.env['CODEX_HOME'], h.configDir);
    const toml = fs.readFileSync(path.join(h.configDir, 'config.toml'), 'utf8');
    assert.match(toml, /base_url = "http:\/\/127\.0\.0\.1:45678\/v1"/);
    assert.match(toml, /wire_api = "responses"/);
    assert.ok(toml.includes(`[projects.${JSON.stringify(h.cwd)}]`));
    assert.match(toml, /daemon_auto_start = false/);
    assert.equal(h.env['FAKE_API_KEY'], 'sk-fake-openai');
  }));

test('opencode: opencode.json in XDG_CONFIG_HOME, models fetch disabled, npm registry closed', () =>
  withRoot((root) => {
    const h = harnessEnv('opencode', { root, modelUrl });
    const cfg = JSON.parse(fs.readFileSync(path.join(h.configDir, 'opencode.json'), 'utf8'));
    assert.equal(cfg.provider.fake.options.baseURL, `${modelUrl}/v1`);
    assert.equal(cfg.model, 'fake/fake-model');
    assert.equal(h.env['OPENCODE_DISABLE_MODELS_FETCH'], '1');
    assert.equal(h.env['npm_config_registry'], 'http://127.0.0.1:9/');
  }));

test('pi and omp: provider tables on the fake, offline switches, model-selecting argv', () =>
  withRoot((root) => {
    const pi = harnessEnv('pi', { root: path.join(root, 'pi'), modelUrl });
    assert.equal(pi.env['PI_CODING_AGENT_DIR'], pi.configDir);
    assert.equal(pi.env['PI_OFFLINE'], '1');
    assert.equal(JSON.parse(fs.readFileSync(path.join(pi.configDir, 'models.json'), 'utf8')).providers.fakeoai.baseUrl, `${modelUrl}/v1`);
    assert.deepEqual(pi.argvPrefix, ['--provider', 'fakeoai', '--model', 'fake-model']);
    const omp = harnessEnv('omp', { root: path.join(root, 'omp'), modelUrl });
    assert.equal(omp.configDir, path.join(omp.home, '.omp', 'agent'));
    assert.match(fs.readFileSync(path.join(omp.configDir, 'config.yml'), 'utf8'), /setupVersion: 2\nstartup:\n {2}checkUpdate: false/);
    assert.equal(JSON.parse(fs.readFileSync(path.join(omp.configDir, 'models.yml'), 'utf8')).providers.fakeoai.api, 'openai-completions');
    assert.deepEqual(omp.argvPrefix, ['--model', 'fakeoai/fake-model']);
  }));
