/**
 * Test doubles for the goal driver's ports (auditor, continuation, pages, settings), shared by the
 * goals unit tests. Not used in production.
 */
import type { Auditor, AuditRequest, AuditResult } from './auditor/port.ts';
import { createMemoryGoalsRepository } from './memory-repo.test-support.ts';
import { createGoals, type Goals } from './service.ts';
import type { ContinuationPort, GoalLimits, GoalSettings, PagePort, Verdict } from './types.ts';

export type Script = (Verdict | { error: string } | { throws: string } | { hang: true })[];

export interface ScriptedAuditor extends Auditor {
  calls: AuditRequest[];
  /** Specs the driver asked the factory for. */
  specs: string[];
}

/** An auditor answering from a script (then `continue` forever); `tokens` per audit. */
export function scriptedAuditor(script: Script, tokens = 10): ScriptedAuditor {
  const calls: AuditRequest[] = [];
  return {
    spec: 'fake/auditor',
    calls,
    specs: [],
    async audit(req): Promise<AuditResult> {
      calls.push(req);
      const step = script.shift() ?? { allDone: false, remaining: ['more'], needsUser: false };
      if ('throws' in step) throw new Error(step.throws);
      if ('hang' in step) await new Promise((r) => setTimeout(r, 50));
      if ('error' in step) return { ok: false, error: step.error, tokens: 0 };
      if ('hang' in step) return { ok: true, verdict: { allDone: false, remaining: ['x'], needsUser: false }, tokens };
      return { ok: true, verdict: step, tokens };
    },
  };
}

export const CONTINUE: Verdict = { allDone: false, remaining: ['write the tests'], needsUser: false };
export const DONE: Verdict = { allDone: true, remaining: [], needsUser: false };
export const NEEDS_USER: Verdict = { allDone: false, remaining: ['which database to use?'], needsUser: true };

export interface Rig {
  goals: Goals;
  auditor: ScriptedAuditor;
  events: { type: string; data: unknown }[];
  pages: { asked: string[]; notified: string[] };
  sent: { sessionId: string; prompt: string; limits: GoalLimits }[];
  settings: Partial<GoalSettings> & { throws?: boolean };
  now: { ms: number };
}

export const SESSION = '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';

export function createRig(script: Script, opts: { continuation?: boolean; auditTokens?: number; repo?: ReturnType<typeof createMemoryGoalsRepository> } = {}): Rig {
  const auditor = scriptedAuditor(script, opts.auditTokens ?? 10);
  const events: Rig['events'] = [];
  const pages: Rig['pages'] = { asked: [], notified: [] };
  const sent: Rig['sent'] = [];
  const settings: Rig['settings'] = {};
  const now = { ms: Date.parse('2030-01-01T00:00:00Z') };
  const pagePort: PagePort = {
    async ask(i) {
      pages.asked.push(i.question);
      return `pag_${'0'.repeat(26)}`;
    },
    async notify(i) {
      pages.notified.push(i.message);
    },
  };
  const continuation: ContinuationPort | undefined = opts.continuation
    ? { canSend: () => true, send: async (i) => (sent.push(i), { ok: true }) }
    : undefined;
  const goals = createGoals({
    repo: opts.repo ?? createMemoryGoalsRepository(),
    settings: async () => {
      if (settings.throws) throw new Error('store unreadable');
      return settings;
    },
    auditorFor: (spec) => (auditor.specs.push(spec), auditor),
    continuation,
    pages: pagePort,
    publish: (type, data) => events.push({ type, data }),
    clock: () => now.ms,
  });
  return { goals, auditor, events, pages, sent, settings, now };
}
