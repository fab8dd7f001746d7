/**
 * The session panel's goal (issue 9): set one (objective, optional token budget and turn ceiling),
 * then watch it — status, turns, tokens, whether the auditor is judging, the last verdict with what
 * remains — and pause, resume or clear it. Live through the goal events (use-board.ts).
 */
import { useEffect, useState } from 'react';
import { api } from './api.ts';
import { remainingOf } from './goal-badge.tsx';
import { compact } from './format.ts';
import type { Goal, GoalView, Session } from './types.ts';

interface Props {
  session: Session;
  goal: GoalView | undefined;
  /** Goals API missing in this daemon (404). */
  available: boolean;
  onGoal(sessionId: string, goal: Goal | null): void;
}

const positive = (v: string): number | undefined => (v.trim() === '' ? undefined : Number(v));

interface Check {
  drivable: boolean;
  message?: string;
  fix?: string[];
  note?: string | null;
}

/**
 * Before a goal is set: the default limits (settings goalDefaultTokenBudget / goalDefaultMaxTurns)
 * prefill the form, and whether the session can be driven at all is said before submitting.
 */
function useGoalPrefill(session: Session, setBudget: (v: string) => void, setTurns: (v: string) => void): Check | null {
  const [check, setCheck] = useState<Check | null>(null);
  useEffect(() => {
    let live = true;
    void api<{ settings: { goalDefaultTokenBudget?: number; goalDefaultMaxTurns?: number } }>('GET', '/api/settings').then((r) => {
      if (!live) return;
      if (r.settings.goalDefaultTokenBudget) setBudget(String(r.settings.goalDefaultTokenBudget));
      if (r.settings.goalDefaultMaxTurns) setTurns(String(r.settings.goalDefaultMaxTurns));
    }, () => undefined);
    const q = `sessionId=${encodeURIComponent(session.id)}&harness=${encodeURIComponent(session.harness)}`;
    void api<Check>('GET', `/api/goals/check?${q}`).then((r) => live && setCheck(r), () => undefined);
    return () => {
      live = false;
    };
  }, [session.id, session.harness, session.live, setBudget, setTurns]);
  return check;
}

function GoalForm({ session, onGoal }: Pick<Props, 'session' | 'onGoal'>) {
  const [objective, setObjective] = useState('');
  const [budget, setBudget] = useState('');
  const [turns, setTurns] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const check = useGoalPrefill(session, setBudget, setTurns);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await api<{ goal: Goal }>('POST', '/api/goals', { sessionId: session.id, harness: session.harness, objective: objective.trim(), tokenBudget: positive(budget), maxTurns: positive(turns) });
      onGoal(session.id, r.goal);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="goal-form" onSubmit={(e) => void submit(e)} data-testid="goal-form">
      <textarea value={objective} onChange={(e) => setObjective(e.target.value)} placeholder="What should this session get done? The auditor checks it after every turn." aria-label="objective" rows={3} maxLength={8000} />
      <div className="goal-limits">
        <label>Token budget<input type="number" min={1} step={1} value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="none" aria-label="token budget" /></label>
        <label>Max turns<input type="number" min={1} step={1} value={turns} onChange={(e) => setTurns(e.target.value)} placeholder="default" aria-label="max turns" /></label>
        <button type="submit" className="primary" disabled={busy || !objective.trim() || check?.drivable === false}>Set goal</button>
      </div>
      {check && !check.drivable && (
        <div className="error" role="alert" data-testid="goal-not-drivable">
          {check.message}
          {check.fix && <div className="mono">{check.fix.join('   or   ')}</div>}
        </div>
      )}
      {check?.drivable && check.note && <div className="muted" data-testid="goal-note">{check.note}</div>}
      {error && <div className="error" role="alert">{error}</div>}
    </form>
  );
}

function Meter({ used, of, label }: { used: number; of: number | null; label: string }) {
  const pct = of ? Math.min(100, Math.round((used / of) * 100)) : null;
  return (
    <div className="meter">
      <div className="meter-label"><span>{label}</span><span>{compact(used)}{of !== null ? ` / ${compact(of)}` : ''}</span></div>
      {pct !== null && <div className={`meter-bar${pct >= 90 ? ' hot' : ''}`}><span style={{ width: `${pct}%` }} /></div>}
    </div>
  );
}

export function GoalSlot({ session, goal, available, onGoal }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (path: 'pause' | 'resume' | 'clear') => {
    if (!goal) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api<{ goal?: Goal }>('POST', `/api/goals/${encodeURIComponent(goal.id)}/${path}`, {});
      onGoal(session.id, path === 'clear' ? null : (r.goal ?? null));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (!available) return <p className="muted">This daemon has no goals yet.</p>;
  if (!goal) return <GoalForm session={session} onGoal={onGoal} />;
  const v = goal.lastAudit?.verdict;
  const remaining = remainingOf(goal);
  return (
    <div className={`goal g-${goal.status}`} data-testid="goal" data-goal={goal.id} data-goal-status={goal.status}>
      <div className="goal-head">
        <span className={`pill g-${goal.status}`}>{goal.status.replace('_', ' ')}</span>
        {goal.evaluating && <span className="auditing" role="status">auditor judging…</span>}
      </div>
      <p className="goal-objective">{goal.objective}</p>
      <Meter label="Turns" used={goal.turns} of={goal.maxTurns} />
      <Meter label="Tokens" used={goal.tokensUsed} of={goal.tokenBudget} />
      {goal.lastAudit && (
        <div className={`verdict${v?.allDone ? ' done' : ''}${v?.needsUser || goal.lastAudit.error ? ' warn' : ''}`} data-testid="goal-verdict">
          <div className="muted">Last verdict · {goal.lastAudit.auditor || 'auditor'}</div>
          {v && v.remaining.length > 0 ? <ul>{v.remaining.map((r, i) => <li key={i}>{r}</li>)}</ul> : <div>{remaining}</div>}
          {v?.needsUser && <div className="needs">The auditor says it needs you.</div>}
        </div>
      )}
      {goal.reason && <p className="muted goal-reason">{goal.reason}</p>}
      <div className="actions">
        {goal.status === 'active' ? (
          <button type="button" disabled={busy} onClick={() => void act('pause')}>Pause</button>
        ) : (
          <button type="button" disabled={busy} onClick={() => void act('resume')}>Resume</button>
        )}
        <button type="button" className="danger-outline" disabled={busy} onClick={() => void act('clear')}>Clear goal</button>
      </div>
      {error && <div className="error" role="alert">{error}</div>}
    </div>
  );
}
