/**
 * Auditor specs → auditors. `anthropic/<model>`, `openai/<model>`, `cli:claude[/<model>]`,
 * `cli:codex[/<model>]`; '' = the session's own harness and model (Claude → cli:claude/<model>,
 * Codex → cli:codex/<model>; other harnesses need a configured spec). A spec that cannot be built gives
 * an auditor whose every audit fails with the reason — resolving never throws.
 */
import type { Harness } from '../../core/session.ts';
import { createClaudeCliAuditor, createCodexCliAuditor } from './cli-auditors.ts';
import { createAnthropicAuditor, createOpenAiAuditor } from './http-auditors.ts';
import type { Auditor, CommandRunner, FetchFn } from './port.ts';

export interface AuditorFactoryOptions {
  /** Where base URLs and keys are read: MUSTER_AUDITOR_BASE_URL / MUSTER_AUDITOR_API_KEY first, then
   * ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY or OPENAI_BASE_URL / OPENAI_API_KEY. */
  env: NodeJS.ProcessEnv;
  /** Runs the CLI auditors. Without it, `cli:` specs fail every audit with the reason. */
  run?: CommandRunner;
  fetch?: FetchFn;
}

export type AuditorFactory = (spec: string, session: { harness: Harness; model: string | null }) => Auditor;

export function failingAuditor(spec: string, error: string): Auditor {
  return { spec: spec || '(none)', audit: async () => ({ ok: false, error, tokens: 0 }) };
}

export function createAuditorFactory(o: AuditorFactoryOptions): AuditorFactory {
  const env = o.env;
  const pick = (...keys: string[]) => keys.map((k) => env[k]?.trim()).find((v) => v) ?? '';
  return (rawSpec, session) => {
    let spec = rawSpec.trim();
    if (spec === '') {
      if (session.harness === 'claude' || session.harness === 'codex') spec = `cli:${session.harness}${session.model ? `/${session.model}` : ''}`;
      else return failingAuditor('', `no default auditor for ${session.harness} sessions; set the auditModel setting (e.g. openai/<model>)`);
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
    if (head === 'cli:claude' || head === 'cli:codex') {
      if (!o.run) return failingAuditor(spec, 'CLI auditors are not available in this process');
      const make = head === 'cli:claude' ? createClaudeCliAuditor : createCodexCliAuditor;
      return make({ model, run: o.run, env, bin: pick(head === 'cli:claude' ? 'MUSTER_AUDITOR_CLAUDE_BIN' : 'MUSTER_AUDITOR_CODEX_BIN') || undefined });
    }
    return failingAuditor(spec, `unknown auditor spec ${JSON.stringify(spec)}; use anthropic/<model>, openai/<model>, cli:claude[/<model>] or cli:codex[/<model>]`);
  };
}
