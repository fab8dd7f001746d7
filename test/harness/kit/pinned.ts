/**
 * The pinned harness CLIs. One entry per harness:
 * the npm specs installed together, the bin name, and the packages whose install scripts must run.
 */
export type HarnessName = 'claude' | 'codex' | 'opencode' | 'pi' | 'omp' | 'gemini' | 'copilot';

export const HARNESS_NAMES: readonly HarnessName[] = ['claude', 'codex', 'opencode', 'pi', 'omp', 'gemini', 'copilot'];

export interface PinnedCli {
  /** Version of the harness itself; names the cache directory `<name>@<version>`. */
  readonly version: string;
  /** npm specs installed into one prefix. */
  readonly specs: readonly string[];
  /** Command name under `node_modules/.bin`. */
  readonly bin: string;
  /**
   * Packages allowed to run install scripts (npm 11 `--allow-scripts`). Claude Code's postinstall
   * copies the native binary into place; bun's postinstall links its platform binary. The others
   * ship their native binaries as optional dependencies and need no script.
   */
  readonly allowScripts: readonly string[];
}

export const PINNED: Readonly<Record<HarnessName, PinnedCli>> = {
  claude: {
    version: '2.1.332',
    specs: ['@anthropic-ai/claude-code@2.1.332'],
    bin: 'claude',
    allowScripts: ['@anthropic-ai/claude-code'],
  },
  codex: { version: '0.171.0', specs: ['@openai/codex@0.171.0'], bin: 'codex', allowScripts: [] },
  opencode: { version: '1.18.33', specs: ['opencode-ai@1.18.33'], bin: 'opencode', allowScripts: [] },
  pi: { version: '0.73.1', specs: ['@mariozechner/pi-coding-agent@0.73.1'], bin: 'pi', allowScripts: [] },
  omp: {
    version: '18.2.3',
    // omp's bin has `#!/usr/bin/env bun`; bun comes from npm next to it (18.3.4 is not installable).
    specs: ['@oh-my-pi/pi-coding-agent@18.2.3', 'bun@1.4.5'],
    bin: 'omp',
    allowScripts: ['bun'],
  },
  // A plain Node bundle; node-pty and keytar are optional (their install scripts stay off).
  gemini: { version: '0.61.0', specs: ['@google/gemini-cli@0.61.0'], bin: 'gemini', allowScripts: [] },
  // An npm loader plus a native single-executable from the platform package; it unpacks itself on first run.
  copilot: { version: '1.0.102', specs: ['@github/copilot@1.0.102'], bin: 'copilot', allowScripts: [] },
};
