/** Test and bench builders of sessions, pages and goals as the daemon's API returns them. */
import { emptyTokens, type Session } from '../core/session.ts';
import type { Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';

/** A UUID-shaped id from a number (stable, readable in failures). */
export const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function session(n: number, over: Partial<Session> = {}): Session {
  return {
    harness: 'claude', id: uuid(n), title: `session ${n}`, cwd: `/work/repo${n}`, repoRoot: `/work/repo${n}`, branch: 'main',
    live: true, pid: 1000 + n, pids: [1000 + n], status: 'idle', waitingFor: null, statusSince: '2026-01-01T00:00:00.000Z',
    startedAt: '2026-01-01T00:00:00.000Z', lastActivityAt: '2026-01-01T00:00:00.000Z', model: 'claude-x', tokens: emptyTokens(),
    costUsd: null, prLinks: [], pane: null, canEnd: true, resumeArgv: ['claude', '--resume', uuid(n)], ...over,
  };
}

export function page(n: number, over: Partial<Page> = {}): Page {
  return {
    id: `pag_${String(n).padStart(26, '0')}`, kind: 'question', sessionId: null, harness: 'claude',
    attribution: { sessionId: null, harness: 'claude', via: 'none', launchId: null, cwd: null, note: null }, limitKey: 'k',
    question: `question ${n}?`, choices: null, urgency: 'normal', level: null, context: null, status: 'pending', answer: null,
    createdAt: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`, answeredAt: null, deliveredAt: null, closedAt: null, closedBy: null,
    expiresAt: '2026-01-02T00:00:00.000Z', deliveries: [], ...over,
  };
}

export function goal(sessionId: string, over: Partial<Goal> = {}): Goal {
  return {
    id: `gol_${sessionId.replace(/-/g, '').slice(0, 26).padEnd(26, '0')}`, sessionId, harness: 'claude', objective: 'ship it', status: 'active',
    tokenBudget: null, maxTurns: 20, turns: 3, tokensUsed: 1200, auditTokens: 100, timeUsedSeconds: 60, strikes: 0, auditFailures: 0,
    auditor: '', lastAudit: null, reason: null, pageId: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', settledAt: null, ...over,
  };
}
