/**
 * The commands Muster runs Codex with: resume, headless turns (`codex exec --json`, then
 * `codex exec resume <id>`), and the auditor's run (`--ephemeral`, read-only sandbox: nothing left in
 * the user's history, nothing changed). Codex has no system-prompt flag: the auditor's instructions
 * lead the prompt.
 */
import type { Headless, SendSupport, TurnOutput } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { jsonLines, num, type Json } from '../json-lines.ts';

export function codexResumeArgv(id: string): string[] | null {
  return isUuid(id) ? ['codex', 'resume', id.toLowerCase()] : null;
}

/**
 * `exec --json` events: the thread id, the last turn's final agent message, the usage. Codex's
 * `input_tokens` already include the cached ones (`cached_input_tokens` is a part of them), so the
 * total is input + output.
 */
function parse(stdout: string): TurnOutput {
  let sessionId: string | null = null;
  let text: string | null = null;
  let tokens = 0;
  let error: string | null = null;
  for (const e of jsonLines(stdout)) {
    const item = (e.item ?? {}) as Json;
    if (e.type === 'thread.started' && typeof e.thread_id === 'string') sessionId = e.thread_id;
    if (e.type === 'turn.started') text = null; // only the last turn's final message is its report
    if (e.type === 'item.completed' && item.type === 'agent_message' && typeof item.text === 'string') text = item.text;
    if (e.type === 'turn.completed') {
      const u = (e.usage ?? {}) as Json;
      tokens += num(u.input_tokens) + num(u.output_tokens);
    }
    if (e.type === 'turn.failed' || e.type === 'error') error = String(((e.error ?? {}) as Json).message ?? e.message ?? 'codex reported an error');
  }
  return { sessionId, text, tokens, model: null, error };
}

export const codexHeadless: Headless = {
  command(req) {
    const model = req.model ? ['-m', req.model] : [];
    if (req.sessionId) return { argv: ['codex', 'exec', 'resume', '--json', '--skip-git-repo-check', ...model, req.sessionId, '--', req.prompt] };
    return { argv: ['codex', 'exec', '--json', '--skip-git-repo-check', ...model, '--', req.prompt] };
  },
  parse,
  audit(req) {
    const argv = ['codex', 'exec', '--json', '--ephemeral', '--skip-git-repo-check', '-s', 'read-only'];
    if (req.model) argv.push('-m', req.model);
    argv.push('--', `${req.system}\n\n${req.prompt}`);
    return { argv };
  },
};

/**
 * `muster send`: `codex resume <id> -- <text>` (the optional PROMPT of `codex resume --help`). Its TUI
 * does not queue a prompt typed while a turn runs: 0.171.0 sent it to the model mid-turn (a steer),
 * so a working Codex session reached through its pane is busy.
 */
export const codexSend: SendSupport = {
  resumeWithPrompt: (id, text) => (isUuid(id) ? ['codex', 'resume', id.toLowerCase(), '--', text] : null),
};
