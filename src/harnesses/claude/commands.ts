/**
 * The commands Muster runs Claude Code with: resume, headless turns (`-p --output-format json`, one
 * JSON result object), the auditor's run (no tools, `--no-session-persistence`: nothing left in the
 * user's history), and a hooked continuation of a session whose process has ended.
 */
import type { Headless, SendSupport, TurnOutput } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { jsonLines, num, type Json } from '../json-lines.ts';
import { claudeHooksConfig } from './launch.ts';

export function claudeResumeArgv(id: string): string[] | null {
  return isUuid(id) ? ['claude', '--resume', id] : null;
}

function parse(stdout: string): TurnOutput {
  const r = jsonLines(stdout).reverse().find((e) => e.type === 'result');
  if (!r) return { sessionId: null, text: null, tokens: 0, model: null, error: 'claude printed no result' };
  const u = (r.usage ?? {}) as Json;
  const models = Object.keys((r.modelUsage ?? {}) as Json);
  return {
    sessionId: typeof r.session_id === 'string' ? r.session_id : null,
    text: r.is_error === true || typeof r.result !== 'string' ? null : r.result,
    tokens: num(u.input_tokens) + num(u.output_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens),
    model: models[0] ?? null,
    error: r.is_error === true ? `claude: ${String(r.result ?? r.subtype)}` : null,
  };
}

export const claudeHeadless: Headless = {
  command(req) {
    const at = req.sessionId ? ['--resume', req.sessionId] : req.newId ? ['--session-id', req.newId] : [];
    return { argv: ['claude', '-p', '--output-format', 'json', ...at, ...(req.model ? ['--model', req.model] : []), '--', req.prompt] };
  },
  parse,
  audit(req) {
    // The prompt goes on stdin: `--tools` takes several values and would swallow a positional prompt.
    const argv = ['claude', '-p', '--output-format', 'json', '--no-session-persistence', '--system-prompt', req.system, '--tools', ''];
    if (req.model) argv.push('--model', req.model);
    return { argv, stdin: req.prompt };
  },
  continueWithHooks(sessionId, prompt, hookCommand) {
    return { argv: ['claude', '--resume', sessionId, '-p', prompt, '--settings', JSON.stringify(claudeHooksConfig(hookCommand))] };
  },
};

/**
 * `muster send`: `claude --resume <id> -- <text>` (after `--` a text starting with `-` is still the
 * prompt). Its TUI queues a prompt typed while a turn runs and submits it after (observed, 2.1.332).
 */
export const claudeSend: SendSupport = {
  resumeWithPrompt: (id, text) => (isUuid(id) ? ['claude', '--resume', id, '--', text] : null),
  queuesTyped: true,
};
