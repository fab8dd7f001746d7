/**
 * Auditor specs → auditors. `anthropic/<model>`, `openai/<model>`, `cli:<harness>[/<model>]` for every
 * harness whose adapter can audit; '' = the session's own harness and model (the adapter's default
 * spec). A spec that cannot be built gives an auditor whose every audit fails with the reason —
 * resolving never throws.
 */
import type { Harness } from '../../core/session.ts';
import type { Headless } from '../../harnesses/adapter.ts';
import { createCliAuditor } from './cli-auditors.ts';
import { createAnthropicAuditor, createOpenAiAuditor } from './http-auditors.ts';
import type { Auditor, CommandRunner, FetchFn } from './port.ts';

/** What the factory needs to know about the harnesses (the registry, given by the composition root). */
export interface AuditorHarnesses {
  /** The headless commands of a harness that can audit (`cli:<name>`), or null. */
  auditor(name: string): Headless | null;
  /** The default spec for a session of this harness, or null when it has none. */
  defaultSpec(harness: Harness, model: string | null): string | null;
  /** Names accepted after `cli:`, for error messages. */
  auditorNames(): string[];
}

export interface AuditorFactoryOptions {
  /** Where base URLs and keys are read: MUSTER_AUDITOR_BASE_URL / MUSTER_AUDITOR_API_KEY first, then
   * ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY or OPENAI_BASE_URL / OPENAI_API_KEY; MUSTER_AUDITOR_<NAME>_BIN
   * replaces a CLI auditor's command. */
  env: NodeJS.ProcessEnv;
  harnesses: AuditorHarnesses;
  /** Runs the CLI auditors. Without it, `cli:` specs fail every audit with the reason. */
  run?: CommandRunner;
  fetch?: FetchFn;
  log?(line: string): void;
}

export type AuditorFactory = (spec: string, session: { harness: Harness; model: string | null }) => Auditor;

export function failingAuditor(spec: string, error: string): Auditor {
  return { spec: spec || '(none)', audit: async () => ({ ok: false, error, tokens: 0 }) };
}

/** The accepted forms, for error messages. */
export function auditorForms(h: AuditorHarnesses): string {
  return ['anthropic/<model>', 'openai/<model>', ...h.auditorNames().map((n) => `cli:${n}[/<model>]`)].join(', ');
}

export function createAuditorFactory(o: AuditorFactoryOptions): AuditorFactory {
  const env = o.env;
  const pick = (...keys: string[]) => keys.map((k) => env[k]?.trim()).find((v) => v) ?? '';
  return (rawSpec, session) => {
    let spec = rawSpec.trim();
    if (spec === '') {
      const own = o.harnesses.defaultSpec(session.harness, session.model);
      if (own === null) return failingAuditor('', `no default auditor for ${session.harness} sessions; set the auditModel setting (e.g. openai/<model>)`);
      spec = own;
    }
    const slash = spec.indexOf('/');
    const head = slash < 0 ? spec : spec.slice(0, slash);
    const model = slash < 0 ? '' : spec.slice(slash + 1).trim();
    if (head === 'anthropic' || head === 'openai') {
      if (!model) return failingAuditor(spec, `auditor spec ${spec} names no model (${head}/<model>)`);
      if (head === 'anthropic') {
        const baseUrl = pick('MUSTER_AUDITOR_BASE_URL', 'ANTHROPIC_BASE_URL') || 'https://api.anthropic.com';
        return createAnthropicAuditor({ model, baseUrl, apiKey: pick('MUSTER_AUDITOR_API_KEY', 'ANTHROPIC_API_KEY'), fetch: o.fetch });
      }
      const baseUrl = pick('MUSTER_AUDITOR_BASE_URL', 'OPENAI_BASE_URL') || 'https://api.openai.com/v1';
      return createOpenAiAuditor({ model, baseUrl, apiKey: pick('MUSTER_AUDITOR_API_KEY', 'OPENAI_API_KEY'), fetch: o.fetch });
    }
    const name = head.startsWith('cli:') ? head.slice(4) : null;
    const headless = name !== null ? o.harnesses.auditor(name) : null;
    if (name !== null && headless) {
      if (!o.run) return failingAuditor(spec, 'CLI auditors are not available in this process');
      return createCliAuditor({ name, headless, model, run: o.run, env, log: o.log, bin: pick(`MUSTER_AUDITOR_${name.toUpperCase()}_BIN`) || undefined });
    }
    return failingAuditor(spec, `unknown auditor spec ${JSON.stringify(spec)}; use ${auditorForms(o.harnesses)}`);
  };
}
