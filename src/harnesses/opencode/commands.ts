/**
 * The commands Muster runs OpenCode with: resume (`opencode -s <id>`) and headless turns
 * (`opencode run --format json`, then `-s <id>` to continue). Its JSON events carry the session id,
 * text parts, tool uses and per-step token counts.
 */
import type { Headless, SendSupport, TurnOutput } from '../adapter.ts';
import { isOpenCodeId } from './ids.ts';
import { jsonLines, num, type Json } from '../json-lines.ts';

export function opencodeResumeArgv(id: string): string[] | null {
  return isOpenCodeId(id) ? ['opencode', '-s', id] : null;
}

function parse(stdout: string): TurnOutput {
  let sessionId: string | null = null;
  let step: string[] = [];
  let last: string[] = [];
  let tokens = 0;
  for (const e of jsonLines(stdout)) {
    const part = (e.part ?? {}) as Json;
    if (typeof e.sessionID === 'string') sessionId = e.sessionID;
    if (e.type === 'step_start') step = [];
    if (e.type === 'text' && typeof part.text === 'string') step.push(part.text);
    if (e.type === 'tool_use') step = []; // text before a tool call is not the final report
    if (e.type === 'step_finish') {
      const t = (part.tokens ?? {}) as Json;
      const cache = (t.cache ?? {}) as Json;
      tokens += num(t.input) + num(t.output) + num(cache.read) + num(cache.write);
      if (step.length > 0) last = step;
    }
  }
  const text = last.join('').trim();
  return { sessionId, text: text || null, tokens, model: null, error: sessionId ? null : 'opencode printed no session' };
}

export const opencodeHeadless: Headless = {
  command(req) {
    const model = req.model ? ['-m', req.model] : [];
    return { argv: ['opencode', 'run', '--format', 'json', ...(req.sessionId ? ['-s', req.sessionId] : []), ...model, '--', req.prompt] };
  },
  parse,
  /**
   * The auditor: `--pure` (no external plugins: nothing to install or wait for), the instructions
   * leading the prompt (no system-prompt flag), and the session `opencode run` always saves removed
   * afterwards (`opencode session delete`), so nothing is left in the user's history.
   */
  audit(req) {
    const model = req.model ? ['-m', req.model] : [];
    return {
      argv: ['opencode', 'run', '--format', 'json', '--pure', ...model, '--', `${req.system}\n\n${req.prompt}`],
      removeAfter: (out) => (out.sessionId && isOpenCodeId(out.sessionId) ? ['opencode', 'session', 'delete', out.sessionId] : null),
    };
  },
};

/** `muster send`: `opencode -s <id> --prompt=<text>` (the `=` form keeps a text starting with `-` a value). */
export const opencodeSend: SendSupport = {
  resumeWithPrompt: (id, text) => (isOpenCodeId(id) ? ['opencode', '-s', id, `--prompt=${text}`] : null),
};
