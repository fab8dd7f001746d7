/**
 * CLI auditor providers: `cli:claude[/<model>]` and `cli:codex[/<model>]` run the harness itself in
 * print mode with the user's own login, and leave no session behind (`--no-session-persistence`,
 * `--ephemeral`). The OS is reached only through the injected CommandRunner. Never throws (port.ts).
 */
import type { AuditResult, Auditor, CommandRunner } from './port.ts';
import { AUDIT_SYSTEM, auditPrompt, parseVerdict } from './verdict.ts';

export interface CliAuditorOptions {
  /** Model name passed with --model/-m; '' = the CLI's own default. */
  model: string;
  run: CommandRunner;
  /** The CLI's command. Default: `claude` / `codex` (found on PATH). */
  bin?: string;
  /** Environment of the CLI. Default: the runner's (the daemon's own). */
  env?: NodeJS.ProcessEnv;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const specOf = (name: string, model: string) => (model ? `cli:${name}/${model}` : `cli:${name}`);
/** Marks the auditor's own process, so Muster's hooks inside it can tell it is not a session to drive. */
const AUDITOR_ENV = { MUSTER_AUDITOR: '1' };

export function createClaudeCliAuditor(o: CliAuditorOptions): Auditor {
  return {
    spec: specOf('claude', o.model),
    async audit(req): Promise<AuditResult> {
      // The prompt goes on stdin: `--tools` takes several values and would swallow a positional prompt.
      const argv = [o.bin ?? 'claude', '-p', '--output-format', 'json', '--no-session-persistence', '--system-prompt', AUDIT_SYSTEM, '--tools', ''];
      if (o.model) argv.push('--model', o.model);
      const env = o.env ? { ...o.env, ...AUDITOR_ENV } : undefined;
      const r = await o.run(argv, { cwd: req.cwd ?? undefined, env, input: auditPrompt(req.objective, req.report), timeoutMs: req.timeoutMs });
      if (r.error) return { ok: false, error: `claude auditor: ${r.error}`, tokens: 0 };
      let out: { result?: unknown; is_error?: unknown; usage?: Record<string, unknown> };
      try {
        out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as typeof out;
      } catch {
        return { ok: false, error: `claude auditor exited ${r.code} without a JSON result: ${r.stderr.slice(0, 200)}`, tokens: 0 };
      }
      const u = out.usage ?? {};
      const tokens = num(u.input_tokens) + num(u.output_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens);
      if (out.is_error === true || typeof out.result !== 'string') return { ok: false, error: `claude auditor failed: ${String(out.result).slice(0, 200)}`, tokens };
      const v = parseVerdict(out.result);
      return v.ok ? { ok: true, verdict: v.verdict, tokens } : { ok: false, error: v.error, tokens };
    },
  };
}

/** Reads `codex exec --json` events: the last agent message and the turn's usage. */
export function readCodexExec(stdout: string): { text: string | null; tokens: number; error: string | null } {
  let text: string | null = null;
  let tokens = 0;
  let error: string | null = null;
  for (const line of stdout.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    let e: { type?: string; item?: { type?: string; text?: string; message?: string }; usage?: Record<string, unknown>; message?: string; error?: { message?: string } };
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      continue;
    }
    if (e.type === 'item.completed' && e.item?.type === 'agent_message' && typeof e.item.text === 'string') text = e.item.text;
    if (e.type === 'turn.completed') tokens += num(e.usage?.input_tokens) + num(e.usage?.output_tokens) + num(e.usage?.cached_input_tokens);
    if (e.type === 'turn.failed' || e.type === 'error') error = e.error?.message ?? e.message ?? 'codex reported an error';
  }
  return { text, tokens, error };
}

export function createCodexCliAuditor(o: CliAuditorOptions): Auditor {
  return {
    spec: specOf('codex', o.model),
    async audit(req): Promise<AuditResult> {
      const argv = [o.bin ?? 'codex', 'exec', '--json', '--ephemeral', '--skip-git-repo-check', '-s', 'read-only'];
      if (o.model) argv.push('-m', o.model);
      argv.push('--', `${AUDIT_SYSTEM}\n\n${auditPrompt(req.objective, req.report)}`);
      const env = o.env ? { ...o.env, ...AUDITOR_ENV } : undefined;
      const r = await o.run(argv, { cwd: req.cwd ?? undefined, env, timeoutMs: req.timeoutMs });
      if (r.error) return { ok: false, error: `codex auditor: ${r.error}`, tokens: 0 };
      const x = readCodexExec(r.stdout);
      if (x.text === null) return { ok: false, error: `codex auditor exited ${r.code} without an answer: ${x.error ?? r.stderr.slice(0, 200)}`, tokens: x.tokens };
      const v = parseVerdict(x.text);
      return v.ok ? { ok: true, verdict: v.verdict, tokens: x.tokens } : { ok: false, error: v.error, tokens: x.tokens };
    },
  };
}
