/**
 * Another host's command as a request to this daemon's own API: each command kind maps to one route,
 * with only the fields that route takes, so the command table can reach nothing else (no settings,
 * no hooks, no uploads). Ids that are not well formed are answered here, before they become part of
 * a path; the route then checks everything again, as for any local request.
 */
import { isPageId } from '../pager/index.ts';
import { isGoalId } from '../goals/index.ts';
import { isHarness, isSessionId } from '../harnesses/registry.ts';
import type { CommandAnswer, CommandKind } from '../fleet/types.ts';

export type FleetRequest = { method: 'POST'; path: string; body?: Record<string, unknown> } | { answer: CommandAnswer };

const refuse = (code: string, message: string): { answer: CommandAnswer } => ({ answer: { status: 400, body: { ok: false, error: { code, message } } } });

/** The fields of `args` that a route takes (absent ones stay absent). */
function pick(args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.hasOwn(args, k)) out[k] = args[k];
  return out;
}

export function fleetRequest(kind: CommandKind, args: Record<string, unknown>): FleetRequest {
  switch (kind) {
    case 'page.answer':
    case 'page.dismiss': {
      if (!isPageId(args.pageId)) return refuse('invalid_id', 'not a page id (pag_ followed by 26 letters and digits)');
      const id = encodeURIComponent(args.pageId);
      return kind === 'page.answer' ? { method: 'POST', path: `/api/pages/${id}/answer`, body: pick(args, ['text', 'choice']) } : { method: 'POST', path: `/api/pages/${id}/dismiss` };
    }
    case 'goal.set':
      return { method: 'POST', path: '/api/goals', body: pick(args, ['sessionId', 'objective', 'harness', 'tokenBudget', 'maxTurns', 'auditor']) };
    case 'goal.pause':
    case 'goal.resume':
    case 'goal.clear': {
      if (!isGoalId(args.ref) && !isSessionId(args.ref)) return refuse('invalid_id', 'not a goal id (gol_…) or a session id');
      const path = `/api/goals/${encodeURIComponent(args.ref as string)}/${kind.slice(5)}`;
      return kind === 'goal.resume' ? { method: 'POST', path, body: pick(args, ['prompt', 'tokenBudget', 'maxTurns']) } : { method: 'POST', path };
    }
    case 'session.end':
      return { method: 'POST', path: '/api/end', body: { ...pick(args, ['sessionId', 'pid']), via: 'fleet' } };
    case 'session.resume':
      return { method: 'POST', path: '/api/resume', body: { ...pick(args, ['sessionId', 'print']), via: 'fleet' } };
    case 'session.send': {
      if (!isHarness(args.harness)) return refuse('invalid_argument', 'not a harness name');
      if (!isSessionId(args.sessionId)) return refuse('invalid_id', 'not a session id');
      return { method: 'POST', path: `/api/sessions/${args.harness}/${encodeURIComponent(args.sessionId)}/send`, body: { ...pick(args, ['text', 'pid']), via: 'fleet' } };
    }
  }
}
