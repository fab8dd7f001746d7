/**
 * A session's conversation, read through GET /api/sessions/<harness>/<id>/messages: opened from a
 * search hit (scrolled to that message, which is marked) or from any session's panel (from the start).
 * Text is rendered with SafeMarkdown; long tool output is collapsed behind a summary. Earlier and later
 * pages load on demand.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api } from '../api.ts';
import { SafeMarkdown } from './safe-markdown.tsx';

export interface TranscriptTarget {
  harness: string;
  id: string;
  title: string | null;
  /** The message to show and mark; null: from the start. */
  position: number | null;
}

interface Message { position: number; role: string; text: string; at: string | null }
interface PageBody { supported: boolean; messages: Message[]; next: number | null; total: number }

/** Messages loaded before a hit, for context. */
const BEFORE = 10;
const PAGE = 60;
/** Tool output longer than this (characters) starts collapsed. */
const COLLAPSE_AT = 400;

function Body({ m }: { m: Message }) {
  if (m.role === 'tool-result' && m.text.length > COLLAPSE_AT) {
    return (
      <details className="tool-output">
        <summary>{m.text.slice(0, 120)}… ({m.text.length.toLocaleString()} characters)</summary>
        <pre>{m.text}</pre>
      </details>
    );
  }
  if (m.role === 'tool-call' || m.role === 'tool-result') return <pre className="tool-line">{m.text}</pre>;
  return <SafeMarkdown text={m.text} />;
}

export default function TranscriptPanel({ target, onClose }: { target: TranscriptTarget; onClose(): void }) {
  const [messages, setMessages] = useState<Message[]>([]);
  const [state, setState] = useState<{ next: number | null; total: number; supported: boolean; error: string | null; loading: boolean }>({ next: null, total: 0, supported: true, error: null, loading: true });
  const hitRef = useRef<HTMLLIElement | null>(null);
  const base = `/api/sessions/${encodeURIComponent(target.harness)}/${encodeURIComponent(target.id)}/messages`;
  const first = target.position === null ? 0 : Math.max(0, target.position - BEFORE);

  useEffect(() => {
    let gone = false;
    setMessages([]);
    setState((s) => ({ ...s, loading: true, error: null }));
    api<PageBody>('GET', `${base}?from=${first}&limit=${PAGE}`)
      .then((r) => !gone && (setMessages(r.messages), setState({ next: r.next, total: r.total, supported: r.supported, error: null, loading: false })))
      .catch((e: Error) => !gone && setState((s) => ({ ...s, error: e.message, loading: false })));
    return () => void (gone = true);
  }, [base, first]);

  useLayoutEffect(() => {
    hitRef.current?.scrollIntoView({ block: 'center' });
  }, [messages]);

  const more = async (from: number, limit: number, where: 'before' | 'after') => {
    const r = await api<PageBody>('GET', `${base}?from=${from}&limit=${limit}`);
    setMessages((ms) => (where === 'after' ? [...ms, ...r.messages] : [...r.messages, ...ms]));
    if (where === 'after') setState((s) => ({ ...s, next: r.next }));
  };
  const start = messages[0]?.position ?? 0;

  return (
    <aside className="panel transcript-panel" data-testid="transcript-panel" aria-label="transcript" data-key={`${target.harness}:${target.id}`}>
      <header className="panel-head">
        <div className="panel-title">
          <h2>{target.title || 'untitled'}</h2>
          <div className="muted">{target.harness} · {target.id.slice(0, 8)} · {state.total} messages</div>
        </div>
        <button type="button" className="quiet close" onClick={onClose} aria-label="close transcript">✕</button>
      </header>
      {state.loading && <p className="muted">Loading…</p>}
      {state.error && <p className="error" role="alert">{state.error}</p>}
      {!state.supported && <p className="muted">Muster cannot read this harness's transcripts yet.</p>}
      {start > 0 && <button type="button" className="quiet" onClick={() => void more(Math.max(0, start - PAGE), Math.min(PAGE, start), 'before')}>Earlier messages</button>}
      <ol className="transcript" data-testid="transcript">
        {messages.map((m) => {
          const hit = m.position === target.position;
          return (
            <li key={m.position} ref={hit ? hitRef : undefined} className={`msg role-${m.role}${hit ? ' hit' : ''}`} data-position={m.position} data-testid={hit ? 'transcript-hit' : undefined}>
              <div className="msg-head"><span className="role">{m.role}</span> <span className="muted">#{m.position}{m.at ? ` · ${m.at.slice(0, 16).replace('T', ' ')}` : ''}</span></div>
              <Body m={m} />
            </li>
          );
        })}
      </ol>
      {state.next !== null && <button type="button" className="quiet" onClick={() => void more(state.next as number, PAGE, 'after')}>Later messages</button>}
    </aside>
  );
}
