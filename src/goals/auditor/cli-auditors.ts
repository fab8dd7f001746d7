/**
 * CLI auditors, `cli:<harness>[/<model>]`: the harness itself in its print mode with the user's own
 * login and configuration, leaving no session behind (the adapter's `headless.audit` command says
 * how: `--no-session-persistence`, `--ephemeral`…, or its `finish` removes what the run persisted). The OS is reached only through the injected
 * CommandRunner. Never throws (port.ts).
 */
import type { Headless } from '../../harnesses/adapter.ts';
import type { AuditResult, Auditor, CommandRunner } from './port.ts';
import { AUDIT_SYSTEM, auditPrompt, parseVerdict } from './verdict.ts';

export interface CliAuditorOptions {
  /** The harness's name (the spec's `cli:<name>`). */
  name: string;
  /** Its headless commands; `audit` must be present. */
  headless: Headless;
  /** Model name; '' = the CLI's own default. */
  model: string;
  run: CommandRunner;
  /** The CLI's command instead of the adapter's (found on PATH). */
  bin?: string;
  /** Environment of the CLI. Default: the runner's (the daemon's own). */
  env?: NodeJS.ProcessEnv;
  log?(line: string): void;
}

/** Marks the auditor's own process, so Muster's hooks inside it can tell it is not a session to drive. */
const AUDITOR_ENV = { MUSTER_AUDITOR: '1' };

export function createCliAuditor(o: CliAuditorOptions): Auditor {
  const spec = o.model ? `cli:${o.name}/${o.model}` : `cli:${o.name}`;
  return {
    spec,
    async audit(req): Promise<AuditResult> {
      if (!o.headless.audit) return { ok: false, error: `${o.name} cannot serve as an auditor`, tokens: 0 };
      const cmd = o.headless.audit({ system: AUDIT_SYSTEM, prompt: auditPrompt(req.objective, req.report), model: o.model });
      const argv = o.bin ? [o.bin, ...cmd.argv.slice(1)] : cmd.argv;
      const env = o.env ? { ...o.env, ...AUDITOR_ENV } : undefined;
      const r = await o.run(argv, { cwd: req.cwd ?? undefined, env, input: cmd.stdin, timeoutMs: req.timeoutMs });
      // finish runs whatever became of the run: an audit that timed out must not leave its session either.
      const parsed = o.headless.parse(r.stdout);
      const out = o.headless.finish ? o.headless.finish({ command: cmd, output: parsed, env: env ?? process.env, audit: true }) : parsed;
      const remove = cmd.removeAfter?.(out);
      if (remove) {
        const c = await o.run(o.bin ? [o.bin, ...remove.slice(1)] : remove, { cwd: req.cwd ?? undefined, env, timeoutMs: req.timeoutMs });
        // The verdict stands either way; a leftover session is only untidy.
        if (c.code !== 0) o.log?.(`[goals] ${o.name} auditor: could not remove its session: ${(c.error ?? c.stderr).slice(0, 200)}`);
      }
      if (r.error) return { ok: false, error: `${o.name} auditor: ${r.error}`, tokens: out.tokens };
      if (out.text === null) return { ok: false, error: `${o.name} auditor exited ${r.code} without an answer: ${(out.error ?? r.stderr).slice(0, 200)}`, tokens: out.tokens };
      const v = parseVerdict(out.text);
      return v.ok ? { ok: true, verdict: v.verdict, tokens: out.tokens } : { ok: false, error: v.error, tokens: out.tokens };
    },
  };
}
