/**
 * One pending page (an agent's question or notice): choices as buttons (sent as their 0-based
 * index, which is what the pager records and hands back to the agent), a free answer, dismiss.
 * A notice has no answer: only dismiss.
 */
import { useState } from 'react';
import { api } from './api.ts';
import type { Page } from './types.ts';

export function PageCard({ page, title, onDone }: { page: Page; title?: string; onDone(): void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (path: string, body: unknown) => {
    setBusy(true);
    setError(null);
    try {
      await api('POST', `/api/pages/${encodeURIComponent(page.id)}/${path}`, body);
      onDone();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const notice = page.kind === 'notice';
  return (
    <div className={`page-card urg-${page.urgency}${notice ? ' notice' : ''}`} data-testid="page-card" data-page={page.id}>
      {title && <div className="page-from muted">{title}</div>}
      <div className="page-q">{page.question}</div>
      {page.context && <div className="page-ctx muted">{page.context}</div>}
      {!notice && page.choices && page.choices.length > 0 && (
        <div className="page-choices">
          {page.choices.map((c, i) => (
            <button key={i} type="button" disabled={busy} onClick={() => void send('answer', { choice: i })} data-choice={i}>{c}</button>
          ))}
        </div>
      )}
      {notice ? (
        <div className="page-answer"><button type="button" className="quiet" disabled={busy} onClick={() => void send('dismiss', {})}>Dismiss</button></div>
      ) : (
        <form className="page-answer" onSubmit={(e) => { e.preventDefault(); if (text.trim()) void send('answer', { text }); }}>
          <input value={text} onChange={(e) => setText(e.target.value)} placeholder="Answer…" aria-label="answer" disabled={busy} />
          <button type="submit" disabled={busy || !text.trim()}>Send</button>
          <button type="button" className="quiet" disabled={busy} onClick={() => void send('dismiss', {})}>Dismiss</button>
        </form>
      )}
      {error && <div className="error" role="alert">{error}</div>}
    </div>
  );
}
