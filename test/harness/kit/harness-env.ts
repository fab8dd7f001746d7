/**
 * Isolated, offline environments for the real harness CLIs: a fresh HOME under a test's temp dir,
 * the harness's config seeded to talk to the fake model, and the switches that stop update checks,
 * telemetry and downloads. The machine's real ~ is never read or
 * written: the env is built from a short allowlist, not copied from process.env.
 */
import fs from 'node:fs';
import path from 'node:path';
import { harnessCacheDir } from './install.ts';
import { PINNED } from './pinned.ts';
import type { HarnessName } from './pinned.ts';

export interface HarnessEnvOptions {
  /** A temp dir owned by the test; everything is created below it. */
  root: string;
  /** Fake model base URL without `/v1`, e.g. `fake.url`. */
  modelUrl: string;
  /** Project directory the CLI runs in (created, and trusted where the CLI asks). Default: `<root>/project`. */
  cwd?: string;
  /** Directory with the CLI's bin (prepended to PATH; omp needs `bun` from it). Default: the install cache. */
  binDir?: string;
  /** Codex only: let the TUI start the shared app-server daemon. Default: false (embedded; nothing outlives the test). */
  codexDaemon?: boolean;
}

export interface HarnessEnv {
  /** The complete environment for the child (not merged with process.env). */
  env: NodeJS.ProcessEnv;
  /** The isolated HOME. */
  home: string;
  /** Where the harness keeps its state: CLAUDE_CONFIG_DIR, PI_CODING_AGENT_DIR, ~/.omp/agent, CODEX_HOME, XDG_CONFIG_HOME/opencode, ~/.gemini, ~/.copilot. */
  configDir: string;
  /** Project directory (the `cwd` to run in). */
  cwd: string;
  /** Arguments that select the fake model; put them right after the command. */
  argvPrefix: string[];
}

/** The API key every seeded config uses; Claude approves its last 20 characters. */
export const FAKE_ANTHROPIC_KEY = 'sk-ant-fake-key-muster-0000000000';
export const FAKE_OPENAI_KEY = 'sk-fake-openai';

/** Variables taken from the parent; everything else is set explicitly. */
const INHERITED = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME', 'SHELL'];

function mkdir(dir: string, mode?: number): string {
  fs.mkdirSync(dir, { recursive: true, ...(mode !== undefined ? { mode } : {}) });
  return dir;
}

function writeJson(file: string, value: unknown): void {
  mkdir(path.dirname(file));
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function baseEnv(home: string, binDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of INHERITED) if (process.env[key] !== undefined) env[key] = process.env[key];
  env['PATH'] = `${binDir}${path.delimiter}${env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin'}`;
  env['HOME'] = home;
  env['TERM'] = 'xterm-256color';
  env['XDG_CONFIG_HOME'] = mkdir(path.join(home, '.config'));
  env['XDG_DATA_HOME'] = mkdir(path.join(home, '.local', 'share'));
  env['XDG_STATE_HOME'] = mkdir(path.join(home, '.local', 'state'));
  env['XDG_CACHE_HOME'] = mkdir(path.join(home, '.cache'));
  // Tools that call npm (OpenCode's plugin SDK install) hit a closed port instead of the registry.
  env['npm_config_registry'] = 'http://127.0.0.1:9/';
  return env;
}

/** pi's and omp's provider table (models.json / models.yml have the same shape). */
function piProviders(modelUrl: string): object {
  return {
    providers: {
      fakeoai: {
        baseUrl: `${modelUrl}/v1`,
        api: 'openai-completions',
        apiKey: FAKE_OPENAI_KEY,
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'fake-model', name: 'Fake OpenAI', contextWindow: 128000, maxTokens: 4096 }],
      },
      fakeanth: {
        baseUrl: modelUrl,
        api: 'anthropic-messages',
        apiKey: FAKE_ANTHROPIC_KEY,
        models: [{ id: 'claude-fake-1', name: 'Fake Anthropic', contextWindow: 200000, maxTokens: 4096 }],
      },
    },
  };
}

const PI_OFFLINE_ENV = { PI_OFFLINE: '1', PI_TELEMETRY: '0', PI_SKIP_VERSION_CHECK: '1' };

function seedClaude(env: NodeJS.ProcessEnv, o: Required<Pick<HarnessEnvOptions, 'root' | 'modelUrl'>> & { home: string; cwd: string }): Omit<HarnessEnv, 'env' | 'home' | 'cwd'> {
  const configDir = mkdir(path.join(o.home, '.claude'));
  // With CLAUDE_CONFIG_DIR set, ~/.claude.json lives inside it. The seed skips onboarding, the
  // API-key prompt and the trust dialog, which otherwise exit offline on a connectivity check.
  writeJson(path.join(configDir, '.claude.json'), {
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [FAKE_ANTHROPIC_KEY.slice(-20)], rejected: [] },
    projects: { [o.cwd]: { hasTrustDialogAccepted: true } },
  });
  Object.assign(env, {
    CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_CODE_TMPDIR: mkdir(path.join(o.root, 'claude-tmp'), 0o700),
    ANTHROPIC_BASE_URL: o.modelUrl,
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  });
  // As root, --dangerously-skip-permissions is refused unless IS_SANDBOX=1.
  if (process.getuid?.() === 0) env['IS_SANDBOX'] = '1';
  return { configDir, argvPrefix: [] };
}

function seedCodex(env: NodeJS.ProcessEnv, modelUrl: string, cwd: string, home: string, daemon: boolean): Omit<HarnessEnv, 'env' | 'home' | 'cwd'> {
  const configDir = mkdir(path.join(home, '.codex'));
  const toml = [
    'model = "fake-model"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    '',
    '[model_providers.fake]',
    'name = "Fake local"',
    `base_url = ${JSON.stringify(`${modelUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    '',
    // Pre-trusting the project skips the TUI's trust prompt (which would write this itself).
    `[projects.${JSON.stringify(cwd)}]`,
    'trust_level = "trusted"',
    '',
    '[features]',
    // The managed daemon setsid()s away and outlives the test; embedded mode keeps one process per session.
    `daemon_auto_start = ${daemon}`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(configDir, 'config.toml'), toml);
  Object.assign(env, { CODEX_HOME: configDir, FAKE_API_KEY: FAKE_OPENAI_KEY });
  return { configDir, argvPrefix: [] };
}

function seedOpenCode(env: NodeJS.ProcessEnv, modelUrl: string): Omit<HarnessEnv, 'env' | 'home' | 'cwd'> {
  const configDir = mkdir(path.join(String(env['XDG_CONFIG_HOME']), 'opencode'));
  writeJson(path.join(configDir, 'opencode.json'), {
    $schema: 'https://opencode.ai/config.json',
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake local',
        options: { baseURL: `${modelUrl}/v1`, apiKey: 'sk-fake' },
        models: { 'fake-model': { name: 'Fake Model' } },
      },
    },
  });
  Object.assign(env, {
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  });
  return { configDir, argvPrefix: [] };
}

function seedPi(env: NodeJS.ProcessEnv, modelUrl: string, home: string): Omit<HarnessEnv, 'env' | 'home' | 'cwd'> {
  const configDir = mkdir(path.join(home, '.pi', 'agent'));
  writeJson(path.join(configDir, 'models.json'), piProviders(modelUrl));
  Object.assign(env, PI_OFFLINE_ENV, { PI_CODING_AGENT_DIR: configDir });
  return { configDir, argvPrefix: ['--provider', 'fakeoai', '--model', 'fake-model'] };
}

function seedOmp(env: NodeJS.ProcessEnv, modelUrl: string, home: string): Omit<HarnessEnv, 'env' | 'home' | 'cwd'> {
  const configDir = mkdir(path.join(home, '.omp', 'agent'));
  // setupVersion 2 skips the setup wizard; checkUpdate false stops the npm version check that
  // PI_OFFLINE does not cover. JSON is valid YAML, so models.yml is written as JSON.
  fs.writeFileSync(path.join(configDir, 'config.yml'), 'setupVersion: 2\nstartup:\n  checkUpdate: false\n');
  fs.writeFileSync(path.join(configDir, 'models.yml'), JSON.stringify(piProviders(modelUrl), null, 2) + '\n');
  Object.assign(env, PI_OFFLINE_ENV);
  return { configDir, argvPrefix: ['--model', 'fakeoai/fake-model'] };
}

function seedGemini(env: NodeJS.ProcessEnv, modelUrl: string, home: string): Omit<HarnessEnv, 'env' | 'home' | 'cwd'> {
  const configDir = mkdir(path.join(home, '.gemini'));
  // Without selectedType the base-URL variable picks the `gateway` auth type, which Gemini CLI refuses.
  writeJson(path.join(configDir, 'settings.json'), {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  });
  Object.assign(env, { GOOGLE_GEMINI_BASE_URL: modelUrl, GEMINI_API_KEY: 'fake-gemini-key', GEMINI_CLI_TRUST_WORKSPACE: 'true', NO_BROWSER: 'true' });
  return { configDir, argvPrefix: ['-m', 'gemini-fake'] };
}

function seedCopilot(env: NodeJS.ProcessEnv, modelUrl: string, home: string, cwd: string): Omit<HarnessEnv, 'env' | 'home' | 'cwd'> {
  const configDir = mkdir(path.join(home, '.copilot'));
  // Trusting the project up front skips the interactive "Confirm folder trust" dialog.
  writeJson(path.join(configDir, 'config.json'), { trustedFolders: [cwd] });
  Object.assign(env, {
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_API_KEY: FAKE_OPENAI_KEY,
    COPILOT_MODEL: 'fake-model',
    COPILOT_AUTO_UPDATE: 'false',
    // The native CLI unpacks ~235 MB on its first run; one shared unpack serves every test home.
    COPILOT_PKG_CACHE_HOME: mkdir(path.join(harnessCacheDir(), 'copilot-pkg-cache')),
  });
  return { configDir, argvPrefix: [] };
}

/** Builds a fresh isolated environment for `name` under `options.root`. Safe to call once per root and harness. */
export function harnessEnv(name: HarnessName, options: HarnessEnvOptions): HarnessEnv {
  const root = path.resolve(options.root);
  const home = mkdir(path.join(root, 'home'));
  const cwd = mkdir(path.resolve(options.cwd ?? path.join(root, 'project')));
  const binDir = options.binDir ?? path.join(harnessCacheDir(), `${name}@${PINNED[name].version}`, 'node_modules', '.bin');
  const env = baseEnv(home, binDir);
  const seeded = (() => {
    switch (name) {
      case 'claude':
        return seedClaude(env, { root, modelUrl: options.modelUrl, home, cwd });
      case 'codex':
        return seedCodex(env, options.modelUrl, cwd, home, options.codexDaemon ?? false);
      case 'opencode':
        return seedOpenCode(env, options.modelUrl);
      case 'pi':
        return seedPi(env, options.modelUrl, home);
      case 'omp':
        return seedOmp(env, options.modelUrl, home);
      case 'gemini':
        return seedGemini(env, options.modelUrl, home);
      case 'copilot':
        return seedCopilot(env, options.modelUrl, home, cwd);
    }
  })();
  return { env, home, cwd, ...seeded };
}
