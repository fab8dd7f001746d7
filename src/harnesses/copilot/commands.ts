/**
 * The commands Muster runs GitHub Copilot CLI with: resume (`copilot --resume=<id>`), headless turns
 * (`--prompt=… --output-format json`, one JSON event per line, then `--resume <id>`), and the
 * auditor's run (no tools: `--available-tools=none`; the instructions lead the prompt, as Copilot has
 * no system-prompt flag; the prompt on stdin).
 *
 * Observed with 1.0.102: the JSON events name the session (`result.sessionId`) and carry the replies,
 * but no token counts — those are in the session's events.jsonl (`session.usage_record`), which
 * `finish` reads once the run has exited. Copilot persists every session, the auditor's too, and has
 * no flag against it: `finish` removes the auditor's session folder (its id is pre-assigned with
 * `--session-id`), which takes it out of Copilot's session list; a row stays in Copilot's own
 * session-store.db index, which Muster does not write.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FinishedRun, Headless, SendSupport, TurnOutput } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { jsonLines, type Json } from '../json-lines.ts';
import { runTokens } from './run-usage.ts';

export function copilotResumeArgv(id: string): string[] | null {
  return isUuid(id) ? ['copilot', `--resume=${id.toLowerCase()}`] : null;
}

/** `--output-format json` events: the session id, the last reply of the last turn, its model. */
function parse(stdout: string): TurnOutput {
  let sessionId: string | null = null;
  let text: string | null = null;
  let model: string | null = null;
  let error: string | null = null;
  for (const e of jsonLines(stdout)) {
    const data = (e.data ?? {}) as Json;
    if (e.type === 'user.message') text = null; // a new prompt (an agentStop block): its reply is the report
    if (e.type === 'assistant.message') {
      if (typeof data.model === 'string') model = data.model;
      const content = typeof data.content === 'string' ? data.content.trim() : '';
      const tools = Array.isArray(data.toolRequests) && data.toolRequests.length > 0;
      // Text said before a tool call is not the final report.
      text = tools ? null : content || text;
    }
    if (e.type === 'result') {
      if (typeof e.sessionId === 'string') sessionId = e.sessionId;
      if (typeof e.exitCode === 'number' && e.exitCode !== 0) error = `copilot exited ${e.exitCode}`;
    }
  }
  if (!sessionId && !error) error = 'copilot printed no result';
  return { sessionId, text, tokens: 0, model, error };
}

/** The session folder and the operation lock Copilot keeps for every session it ever opened. */
function sessionFiles(env: NodeJS.ProcessEnv, homeOf: (env: NodeJS.ProcessEnv) => string, id: string): { dir: string; lock: string } {
  const states = join(homeOf(env), 'session-state');
  return { dir: join(states, id), lock: join(states, '.session-operation-locks', `${id}.lock`) };
}

export function copilotHeadless(homeOf: (env: NodeJS.ProcessEnv) => string): Headless {
  return {
    command(req) {
      const at = req.sessionId ? ['--resume', req.sessionId] : req.newId ? ['--session-id', req.newId] : [];
      // `--prompt=` keeps a prompt that starts with "-" one value.
      return { argv: ['copilot', `--prompt=${req.prompt}`, '--output-format', 'json', ...at, ...(req.model ? ['--model', req.model] : [])], sessionId: req.sessionId ? undefined : req.newId };
    },
    parse,
    audit(req) {
      const id = randomUUID();
      const argv = ['copilot', '--output-format', 'json', '--session-id', id, '--available-tools=none', '--no-custom-instructions', '--disable-builtin-mcps', '--no-ask-user'];
      if (req.model) argv.push('--model', req.model);
      return { argv, stdin: `${req.system}\n\n${req.prompt}`, sessionId: id };
    },
    finish(run: FinishedRun): TurnOutput {
      const id = run.output.sessionId ?? run.command.sessionId ?? null;
      if (id === null || !isUuid(id)) return run.output;
      const files = sessionFiles(run.env, homeOf, id.toLowerCase());
      const tokens = runTokens(join(files.dir, 'events.jsonl'));
      if (run.audit && run.command.sessionId === id) {
        // Only the folder of the id this command gave the session: never one it was pointed at.
        for (const p of [files.dir, files.lock]) {
          try {
            rmSync(p, { recursive: true, force: true });
          } catch {}
        }
      }
      return tokens === null ? run.output : { ...run.output, tokens };
    },
  };
}

/**
 * `muster send`: `copilot --resume=<id> --interactive=<text>` (runs the prompt, stays interactive).
 * Its TUI keeps a prompt typed while a turn runs as `pending` and sends it once the turn ends
 * (observed, 1.0.102).
 */
export const copilotSend: SendSupport = {
  resumeWithPrompt: (id, text) => (isUuid(id) ? ['copilot', `--resume=${id.toLowerCase()}`, `--interactive=${text}`] : null),
  queuesTyped: true,
};
