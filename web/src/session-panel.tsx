/**
 * The session panel (from either view): details, the transcript tail (rendered as text, never as
 * HTML), actions with clear outcomes (end asks first), a message box (the session's next prompt), the character override, and the places for
 * this session's pages and goal (set, watch, pause, resume, clear).
 */
import { useEffect, useState } from 'react';
import { api } from './api.ts';
import { CharacterFace } from './character-face.tsx';
import { ago, cacheState, cost, statusWord, tokens } from './format.ts';
import { HarnessMark } from './harness-mark.tsx';
import { GoalSlot } from './goal-slot.tsx';
import { MessageBox } from './message-box.tsx';
import { PageCard } from './page-card.tsx';
import { ProcessList } from './process-list.tsx';
import { runAction, type ActionName, type ActionResult } from './session-actions.ts';
import type { BoardCharacters, Goal, GoalView, Page, Session, TailMessage } from './types.ts';

interface Props {
  session: Session;
  board: BoardCharacters | null;
  pages: Page[];
  goal: GoalView | undefined;
  goalsAvailable: boolean;
  onGoal(sessionId: string, goal: Goal | null): void;
  now: number;
  onClose(): void;
  onPagesChanged(): void;
  /** The session this one was forked from, when it is listed. */
  parent?: Session;
  onOpen?(s: Session): void;
  /** Opens the whole conversation in the transcript panel. */
  onRead?(s: Session): void;
}

function useTail(s: Session): { messages: TailMessage[]; supported: boolean } {
  const [tail, setTail] = useState<{ messages: TailMessage[]; supported: boolean }>({ messages: [], supported: true });
  useEffect(() => {
    let gone = false;
    api<{ messages: TailMessage[]; supported: boolean }>('GET', `/api/sessions/${encodeURIComponent(s.id)}/tail?limit=20`)
      .then((r) => !gone && setTail({ messages: r.messages, supported: r.supported }))
      .catch(() => !gone && setTail({ messages: [], supported: false }));
    return () => void (gone = true);
  }, [s.id, s.lastActivityAt]);
  return tail;
}

function CharacterPicker({ session, board }: { session: Session; board: BoardCharacters }) {
  const current = board.overrides[session.id];
  const value = current ? `${current.pack}/${current.character}` : '';
  const change = (v: string) => {
    const [pack, character] = v.split('/');
    void api('POST', '/api/characters/override', v ? { sessionId: session.id, pack, character } : { sessionId: session.id, clear: true });
  };
  return (
    <select value={value} onChange={(e) => change(e.target.value)} aria-label="character">
      <option value="">automatic</option>
      {board.packs.map((p) => (
        <optgroup key={p.id} label={p.name}>
          {p.characters.map((c) => <option key={c.id} value={`${p.id}/${c.id}`}>{c.emoji ?? '🖼'} {c.name}</option>)}
        </optgroup>
      ))}
    </select>
  );
}

function ForkedFrom({ id, parent, onOpen }: { id: string; parent: Session | undefined; onOpen?(s: Session): void }) {
  if (!parent || !onOpen) return <dd className="mono" data-testid="forked-from">{id}</dd>;
  return (
    <dd data-testid="forked-from">
      <button type="button" className="link" onClick={() => onOpen(parent)} title={id}>{parent.title || 'untitled'}</button> <span className="mono muted">{id.slice(0, 8)}</span>
    </dd>
  );
}

export function SessionPanel({ session: s, board, pages, goal, goalsAvailable, onGoal, now, onClose, onPagesChanged, parent, onOpen, onRead }: Props) {
  const tail = useTail(s);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const [busy, setBusy] = useState<ActionName | null>(null);
  const [result, setResult] = useState<ActionResult | null>(null);
  useEffect(() => {
    setConfirmEnd(false);
    setResult(null);
  }, [s.id]);
  const act = async (a: ActionName, pid?: number) => {
    setBusy(a);
    setConfirmEnd(false);
    setResult(await runAction(a, s.id, pid));
    setBusy(null);
  };
  const mine = pages.filter((p) => p.sessionId === s.id);
  const cache = cacheState(s.cacheExpiresAt, now);
  // Another host's session: focus stays on that host; a silent or read-only host takes no command.
  const remote = Boolean(s.hostId);
  const locked = remote && (s.hostReachable === false || s.readOnly === true);

  return (
    <aside className="panel" data-testid="session-panel" aria-label="session" data-key={`${s.harness}:${s.id}`}>
      <header className="panel-head">
        <CharacterFace board={board} session={s} size={44} />
        <div className="panel-title">
          <h2 title={s.title}>{s.title || 'untitled'}</h2>
          <div className="muted"><HarnessMark harness={s.harness} /> {s.harness} · {s.model ?? 'model unknown'}</div>
        </div>
        <button type="button" className="quiet close" onClick={onClose} aria-label="close">✕</button>
      </header>
      <div className={`panel-status st-${s.status}`} data-testid="panel-status">
        <span className={`pill st-${statusWord(s)}`}>{statusWord(s)}</span> for {ago(s.statusSince, now)} {s.live ? '· live' : '· ended'}
        {s.live && s.statusKnown === false && <div className="muted">No hook reports what this process is doing.</div>}
        {s.waitingFor && <div className="waiting-for big">{s.waitingFor}</div>}
      </div>
      {remote && (
        <div className="host-note muted" data-testid="host-note">
          On host <b>{s.host}</b>
          {s.hostReachable === false ? ' — not heard from for 30 s or more: this is its last known state.' : s.readOnly ? ' — read-only: it takes no commands from other hosts.' : '. Focus works on that host only: run muster focus there.'}
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={() => void act('focus')} disabled={busy !== null || !s.live || remote}>Focus</button>
        <button type="button" onClick={() => void act('resume')} disabled={busy !== null || s.live || locked}>Resume</button>
        {confirmEnd ? (
          <span className="confirm">
            End this session? <button type="button" className="danger" onClick={() => void act('end')}>Yes, end it</button>
            <button type="button" className="quiet" onClick={() => setConfirmEnd(false)}>Cancel</button>
          </span>
        ) : (
          <button type="button" className="danger-outline" onClick={() => setConfirmEnd(true)} disabled={busy !== null || !s.live || locked}>End…</button>
        )}
      </div>
      {busy && <div className="outcome muted" role="status">{busy}…</div>}
      {result && (
        <div className={`outcome ${result.ok ? 'good' : 'bad'}`} role="status" data-testid="action-outcome">
          {result.message}
          {result.command && <code className="command">{result.command}</code>}
        </div>
      )}
      <ProcessList key={s.id} session={s} now={now} busy={busy !== null} act={(a, pid) => void act(a, pid)} />
      <section className="slot" data-testid="message-slot">
        <h3>Message</h3>
        <MessageBox key={s.id} session={s} />
      </section>
      <section className="slot" data-testid="pages-slot">
        <h3>Pages {mine.length > 0 && <span className="count-badge">{mine.length}</span>}</h3>
        {mine.length === 0 ? <p className="muted">No open questions from this session.</p> : mine.map((p) => <PageCard key={p.id} page={p} onDone={onPagesChanged} />)}
      </section>
      <section className="slot goal-slot" data-testid="goal-slot">
        <h3>Goal</h3>
        <GoalSlot key={s.id} session={s} goal={goal} available={goalsAvailable} onGoal={onGoal} />
      </section>
      <section className="slot">
        <h3>Transcript tail {onRead && <button type="button" className="quiet" onClick={() => onRead(s)} data-testid="read-transcript">Read the whole transcript</button>}</h3>
        {!tail.supported && <p className="muted">This harness does not offer a transcript tail yet.</p>}
        <ol className="tail" data-testid="tail">
          {tail.messages.map((m, i) => (
            <li key={i} className={`msg role-${m.role}`}>
              <span className="role">{m.role}</span>
              <span className="text">{m.text}</span>
            </li>
          ))}
        </ol>
      </section>
      <dl className="details">
        <dt>Id</dt><dd className="mono">{s.id}</dd>
        {s.forkedFrom && <><dt>Forked from</dt><ForkedFrom id={s.forkedFrom} parent={parent} onOpen={onOpen} /></>}
        <dt>Directory</dt><dd className="mono">{s.cwd ?? 'unknown'}</dd>
        <dt>Repo</dt><dd className="mono">{s.repoRoot ?? '—'}</dd>
        <dt>Branch</dt><dd>{s.branch ?? '—'}</dd>
        <dt>Tokens</dt><dd>{tokens(s)} (in {s.tokens.input}, out {s.tokens.output}, cache {s.tokens.cacheRead}/{s.tokens.cacheWrite})</dd>
        <dt>Cost</dt><dd>{cost(s.costUsd)}</dd>
        {cache && <><dt>Cache</dt><dd data-testid="cache" className={cache.warm ? 'cache-warm' : 'muted'}>{cache.text}</dd></>}
        <dt>Started</dt><dd>{s.startedAt ? `${ago(s.startedAt, now)} ago` : '—'}</dd>
        <dt>Pid</dt><dd>{s.pids.length ? s.pids.join(', ') : '—'}</dd>
        <dt>Pane</dt><dd>{s.pane ? `${s.pane.manager} ${s.pane.id}` : '—'}</dd>
        {s.prLinks.length > 0 && <><dt>PRs</dt><dd>{s.prLinks.map((u) => <a key={u} href={u} target="_blank" rel="noreferrer noopener">{u.replace('https://github.com/', '')}</a>)}</dd></>}
        <dt>Character</dt><dd>{board && <CharacterPicker session={s} board={board} />}</dd>
      </dl>
    </aside>
  );
}
