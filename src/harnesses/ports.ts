/**
 * The registry seen through the ports the domain folders declare (goals, pager): the composition
 * root hands these in, so hub/goals/pager never ask which harness is which.
 */
import type { Harness } from '../core/session.ts';
import type { AuditorHarnesses } from '../goals/auditor/factory.ts';
import type { TurnEndSpec } from '../goals/hook-decision.ts';
import { ADAPTERS, adapterFor, isHarness } from './registry.ts';

/** The turn-end event that can carry a goal's continuation, or null (goals/hook-decision.ts). */
export function turnEndOf(harness: Harness): TurnEndSpec | null {
  return adapterFor(harness).hooks.turnEnd ?? null;
}

/** Whether a goal's next turn can run headless with Muster's hooks when the turn-end hook could not deliver it. */
export function canContinueHeadless(harness: Harness): boolean {
  return adapterFor(harness).headless.continueWithHooks !== undefined;
}

/** Which harnesses serve as `cli:` auditors and what each session's default auditor is (goals/auditor). */
export const auditorHarnesses: AuditorHarnesses = {
  auditor: (name) => (isHarness(name) && adapterFor(name).headless.audit ? adapterFor(name).headless : null),
  defaultSpec: (harness, model) => adapterFor(harness).defaultAuditSpec?.({ model }) ?? null,
  auditorNames: () => ADAPTERS.filter((a) => a.headless.audit !== undefined).map((a) => a.name),
};

/** The session an MCP tool call's `_meta` names (Codex's `threadId`), or null (pager attribution). */
export function sessionOfToolMeta(meta: Record<string, unknown> | undefined): { sessionId: string; harness: Harness; via: 'codex-thread' } | null {
  if (!meta) return null;
  for (const a of ADAPTERS) {
    const spec = a.mcpToolMeta;
    const v = spec ? meta[spec.key] : undefined;
    if (spec && typeof v === 'string' && a.isValidId(v)) return { sessionId: v, harness: a.name, via: spec.via };
  }
  return null;
}

/** The harness an MCP client's `clientInfo.name` announces, or null (pager attribution). */
export function harnessOfMcpClient(name: string | undefined): Harness | null {
  if (!name) return null;
  return ADAPTERS.find((a) => a.mcpClientNames.some((re) => re.test(name)))?.name ?? null;
}
