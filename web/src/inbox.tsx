/** The pages inbox: a count in the top bar; open it to answer any pending page inline. */
import { useState } from 'react';
import { PageCard } from './page-card.tsx';
import type { Page, Session } from './types.ts';

export function Inbox({ pages, available, sessionsById, onChanged }: { pages: Page[]; available: boolean; sessionsById: ReadonlyMap<string, Session>; onChanged(): void }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="inbox">
      <button type="button" className={`inbox-btn${pages.length > 0 ? ' has' : ''}`} onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="inbox">
        Inbox <span className="count-badge" data-testid="inbox-count">{pages.length}</span>
      </button>
      {open && (
        <div className="inbox-pop" role="dialog" aria-label="pages">
          {!available && <p className="muted">The pager is not available in this daemon.</p>}
          {available && pages.length === 0 && <p className="muted">Nobody is asking anything.</p>}
          {pages.map((p) => {
            const s = p.sessionId ? sessionsById.get(p.sessionId) : undefined;
            return <PageCard key={p.id} page={p} title={s ? `${s.harness} · ${s.title}` : (p.harness ?? 'unknown session')} onDone={onChanged} />;
          })}
        </div>
      )}
    </div>
  );
}
