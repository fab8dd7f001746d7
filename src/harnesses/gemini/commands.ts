/**
 * The commands Muster runs Gemini CLI with: resume, headless turns (`-o json`: one pretty-printed
 * JSON object `{ session_id, response, stats, error? }`), the auditor's run and a continuation of a
 * session whose process has ended. The prompt goes as `--prompt=<text>`, one argument that yargs
 * never reads as an option even when the text starts with '-'.
 *
 * The auditor cannot be told to write nothing: Gemini writes a chat file for every run. It runs with
 * a pre-assigned `--session-id`, and `finish` removes the chat file(s) carrying that id afterwards,
 * keeping the user's own home and login (an isolated GEMINI_CLI_HOME would lose their auth
 * settings and credentials). `-e none` loads no extension: no Muster hooks or MCP in the audit.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Headless, SendSupport, TurnOutput } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { num, type Json } from '../json-lines.ts';
import { readRegularText } from '../../discovery/regular-file/index.ts';
import { geminiHome } from './homes.ts';

export function geminiResumeArgv(id: string): string[] | null {
  return isUuid(id) ? ['gemini', '--resume', id.toLowerCase()] : null;
}

/** The one JSON object `-o json` prints (multi-line), or null. */
function outputObject(stdout: string): Json | null {
  const start = stdout.indexOf('{');
  if (start < 0) return null;
  for (let at = start; at >= 0; at = stdout.indexOf('\n{', at + 1)) {
    const from = stdout[at] === '\n' ? at + 1 : at;
    try {
      const v = JSON.parse(stdout.slice(from)) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Json;
    } catch {
      // Something before the object (a warning line): try the next line that opens one.
    }
  }
  return null;
}

/** Tokens and the main model from `stats.models` (every role, the router's and summariser's included). */
function usage(stats: Json): { tokens: number; model: string | null } {
  const models = (stats.models && typeof stats.models === 'object' ? stats.models : {}) as Record<string, Json>;
  let tokens = 0;
  let model: string | null = null;
  for (const [name, m] of Object.entries(models)) {
    const t = (m?.tokens ?? {}) as Json;
    tokens += num(t.total) || num(t.prompt) + num(t.candidates) + num(t.thoughts) + num(t.tool);
    if (model === null || (m?.roles as Json | undefined)?.main !== undefined) model = name;
  }
  return { tokens, model };
}

function parse(stdout: string): TurnOutput {
  const o = outputObject(stdout);
  if (!o) return { sessionId: null, text: null, tokens: 0, model: null, error: 'gemini printed no JSON result' };
  const { tokens, model } = usage((o.stats ?? {}) as Json);
  const err = o.error as Json | undefined;
  const error = err ? `gemini: ${String(err.message ?? err.type ?? 'error')}` : null;
  return {
    sessionId: typeof o.session_id === 'string' ? o.session_id : null,
    text: error === null && typeof o.response === 'string' && o.response.trim() !== '' ? o.response : null,
    tokens,
    model,
    error,
  };
}

/** Removes the chat files of session `id` from every project under the Gemini home of `env`. Never throws. */
export function removeChatFiles(env: NodeJS.ProcessEnv, id: string): void {
  const tmp = path.join(geminiHome(env), 'tmp');
  const suffix = `-${id.slice(0, 8)}.jsonl`;
  let slugs: string[] = [];
  try {
    slugs = fs.readdirSync(tmp);
  } catch {
    return;
  }
  for (const slug of slugs) {
    const chats = path.join(tmp, slug, 'chats');
    let names: string[] = [];
    try {
      names = fs.readdirSync(chats).filter((n) => n.startsWith('session-') && n.endsWith(suffix));
    } catch {
      continue;
    }
    for (const n of names) {
      const file = path.join(chats, n);
      try {
        // The name carries 8 hex digits of the id; the header line carries all of it.
        const head = readRegularText(file, 64 * 1024).split('\n', 1)[0] ?? '';
        if ((JSON.parse(head) as { sessionId?: unknown }).sessionId === id) fs.rmSync(file, { force: true });
      } catch {
        // Not a chat file of this session (or already gone): left alone.
      }
    }
  }
}

export const geminiHeadless: Headless = {
  command(req) {
    const at = req.sessionId ? ['--resume', req.sessionId] : req.newId ? ['--session-id', req.newId] : [];
    return { argv: ['gemini', '-o', 'json', ...at, ...(req.model ? ['-m', req.model] : []), `--prompt=${req.prompt}`] };
  },
  parse,
  audit(req) {
    const id = randomUUID();
    // No system-prompt flag: the auditor's instructions lead the prompt, which goes on stdin (`-p` appends to it).
    const argv = ['gemini', '-o', 'json', '-e', 'none', '--session-id', id, ...(req.model ? ['-m', req.model] : []), '--prompt='];
    return { argv, stdin: `${req.system}\n\n${req.prompt}`, sessionId: id };
  },
  // Gemini writes a chat file for every run and cannot be told not to: an audit's is removed.
  finish(run) {
    if (run.audit && run.command.sessionId) removeChatFiles(run.env, run.command.sessionId);
    return run.output;
  },
  // The installed extension's hooks fire in this run too (a goal on a live session implies them).
  continueWithHooks(sessionId, prompt) {
    return { argv: ['gemini', '-o', 'json', '--resume', sessionId, `--prompt=${prompt}`] };
  },
};

/**
 * `muster send`: `gemini --resume <id> --prompt-interactive=<text>` (runs the prompt, stays
 * interactive). Its TUI queues a prompt typed while a turn runs ("Queued (press ↑ to edit)") and sends
 * it once the turn ends (observed, 0.61.0).
 */
export const geminiSend: SendSupport = {
  resumeWithPrompt: (id, text) => (isUuid(id) ? ['gemini', '--resume', id.toLowerCase(), `--prompt-interactive=${text}`] : null),
  queuesTyped: true,
};
