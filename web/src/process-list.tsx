/**
 * The processes of a session open in several at once (Claude allows `--resume` of a live session):
 * each with its own status, reason and pane, and focus / end for that one process (end asks first).
 */
import { useState } from 'react';
import { ago } from './format.ts';
import type { ActionName } from './session-actions.ts';
import type { Session } from './types.ts';

interface Props {
  session: Session;
  now: number;
  busy: boolean;
  act(action: ActionName, pid: number): void;
}

export function ProcessList({ session: s, now, busy, act }: Props) {
  const [confirm, setConfirm] = useState<number | null>(null);
  const list = s.live ? (s.processes ?? []) : [];
  if (list.length < 2) return null;
  return (
    <section className="slot" data-testid="processes">
      <h3>Processes <span className="count-badge">{list.length}</span></h3>
      <ul className="processes">
        {list.map((p) => (
          <li key={p.pid} data-pid={p.pid} data-status={p.status}>
            <span className={`pill st-${p.status}`}>{p.status}</span>{' '}
            <span className="mono">pid {p.pid}</span>
            <span className="muted"> · {p.pane ? `${p.pane.manager} ${p.pane.id}` : 'no pane'} · started {p.startedAt ? `${ago(p.startedAt, now)} ago` : '—'}</span>
            {p.waitingFor && <div className="waiting-for">{p.waitingFor}</div>}
            <div className="actions">
              <button type="button" onClick={() => act('focus', p.pid)} disabled={busy}>Focus</button>
              {confirm === p.pid ? (
                <span className="confirm">
                  End pid {p.pid}? <button type="button" className="danger" onClick={() => (setConfirm(null), act('end', p.pid))}>Yes, end it</button>
                  <button type="button" className="quiet" onClick={() => setConfirm(null)}>Cancel</button>
                </span>
              ) : (
                <button type="button" className="danger-outline" onClick={() => setConfirm(p.pid)} disabled={busy || !s.canEnd}>End…</button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
