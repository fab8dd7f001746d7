/**
 * The New session form: a harness (those the daemon can start first), a directory picked from the ones
 * Muster already knows or typed, an optional worktree branch, a name, a first prompt and an optional
 * goal with its limits; "Focus it" brings the new pane to the front and opens its panel here once it
 * is listed. POST /api/sessions/new waits a little for the session id of harnesses that take none up
 * front; every refusal (bad directory, branch in use, harness missing) is shown as the daemon says it.
 */
import { useMemo, useState } from 'react';
import { api } from './api.ts';
import { startableHarnesses } from './harnesses.ts';
import { knownDirectories } from './known-dirs.ts';
import type { Harness, Session } from './types.ts';

export interface StartedSession {
  launchId: string;
  harness: Harness;
  sessionId: string | null;
  cwd: string;
  pane: { id: string };
  manager: string;
  worktree: { branch: string; path: string } | null;
  goalPending: boolean;
  focus: { outcome: string; message?: string } | null;
}

interface Props {
  sessions: Iterable<Session>;
  /** The harness and directory to start from (the open session's), when there is one. */
  from?: Session;
  onStarted(started: StartedSession, focus: boolean): void;
  onClose(): void;
}

const trimmed = (v: string): string | undefined => (v.trim() === '' ? undefined : v.trim());

export function NewSessionDialog({ sessions, from, onStarted, onClose }: Props) {
  const harnesses = useMemo(() => startableHarnesses(), []);
  const dirs = useMemo(() => knownDirectories(sessions), [sessions]);
  const firstStartable = harnesses.find((h) => h.startable)?.name ?? harnesses[0]?.name ?? '';
  const [harness, setHarness] = useState<string>(from && harnesses.some((h) => h.name === from.harness && h.startable) ? from.harness : firstStartable);
  const [cwd, setCwd] = useState(from?.repoRoot ?? from?.cwd ?? dirs[0] ?? '');
  const [worktree, setWorktree] = useState('');
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState('');
  const [goal, setGoal] = useState('');
  const [budget, setBudget] = useState('');
  const [turns, setTurns] = useState('');
  const [focus, setFocus] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const objective = trimmed(goal);
      const body = {
        harness, cwd: cwd.trim(), worktree: trimmed(worktree), name: trimmed(name), prompt: prompt.trim() ? prompt : undefined, focus,
        goal: objective ? { objective, tokenBudget: trimmed(budget), maxTurns: trimmed(turns) } : undefined,
        // Long enough for a harness's first hook event on a loaded machine; the answer says when it is not there yet.
        waitSeconds: 15,
      };
      onStarted(await api<StartedSession>('POST', '/api/sessions/new', body), focus);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div className="dialog" role="dialog" aria-label="new session" onClick={(e) => e.stopPropagation()} data-testid="new-session-dialog">
        <header><h2>New session</h2><button type="button" className="quiet" onClick={onClose} aria-label="close">✕</button></header>
        <form className="new-session-form" onSubmit={(e) => void submit(e)}>
          <label>Harness
            <select value={harness} onChange={(e) => setHarness(e.target.value)} data-testid="new-harness">
              {harnesses.map((h) => <option key={h.name} value={h.name} disabled={!h.startable}>{h.label}{h.startable ? '' : ' (not installed here)'}</option>)}
            </select>
          </label>
          <label>Directory
            <input value={cwd} onChange={(e) => setCwd(e.target.value)} list="new-session-dirs" placeholder="/path/to/project" required data-testid="new-cwd" />
            <datalist id="new-session-dirs">{dirs.map((d) => <option key={d} value={d} />)}</datalist>
          </label>
          <label>Worktree branch
            <input value={worktree} onChange={(e) => setWorktree(e.target.value)} placeholder="optional: a new git worktree for this branch" data-testid="new-worktree" />
          </label>
          <label>Name
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} placeholder="optional" data-testid="new-name" />
          </label>
          <label>First prompt
            <textarea value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={3} placeholder={goal.trim() ? 'optional: the goal is the first prompt' : 'optional'} data-testid="new-prompt" />
          </label>
          <label>Goal
            <textarea value={goal} onChange={(e) => setGoal(e.target.value)} rows={2} placeholder="optional: what done means; the auditor drives the session there" data-testid="new-goal" />
          </label>
          {goal.trim() && (
            <div className="new-goal-limits">
              <label>Token budget <input type="number" min={1} value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="default" /></label>
              <label>Max turns <input type="number" min={1} value={turns} onChange={(e) => setTurns(e.target.value)} placeholder="default" /></label>
            </div>
          )}
          <label className="check"><input type="checkbox" checked={focus} onChange={(e) => setFocus(e.target.checked)} data-testid="new-focus" /> Focus it (its pane, and its panel here)</label>
          {error && <p className="error" role="alert" data-testid="new-error">{error}</p>}
          <div className="actions">
            <button type="submit" disabled={busy || !harness || !cwd.trim()} data-testid="new-start">{busy ? 'Starting…' : 'Start'}</button>
          </div>
        </form>
      </div>
    </div>
  );
}
