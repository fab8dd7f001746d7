/**
 * Transcript search results (GET /api/search): sessions, best first, each with its hits as snippets
 * whose matches are marked (from the API's mark ranges, as React elements). A hit opens the transcript
 * at that message. Loaded as its own chunk with the transcript panel.
 */
import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import type { TranscriptTarget } from './transcript-panel.tsx';

interface Hit { role: string; at: string | null; snippet: string; marks: [number, number][]; position: number }
interface Result { session: { harness: string; id: string; title: string | null; cwd: string | null; repoRoot: string | null; branch: string | null; live: boolean }; hits: Hit[] }

function Snippet({ hit }: { hit: Hit }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [s, e] of hit.marks) {
    if (s > at) parts.push(hit.snippet.slice(at, s));
    parts.push(<mark key={s}>{hit.snippet.slice(s, e)}</mark>);
    at = e;
  }
  parts.push(hit.snippet.slice(at));
  return <span className="snippet">{parts}</span>;
}

export default function SearchResults({ query, onOpen, onClose }: { query: string; onOpen(t: TranscriptTarget): void; onClose(): void }) {
  const [state, setState] = useState<{ results: Result[] | null; error: string | null }>({ results: null, error: null });
  useEffect(() => {
    let gone = false;
    setState({ results: null, error: null });
    api<{ results: Result[] }>('GET', `/api/search?q=${encodeURIComponent(query)}&limit=50`)
      .then((r) => !gone && setState({ results: r.results, error: null }))
      .catch((e: Error) => !gone && setState({ results: null, error: e.message }));
    return () => void (gone = true);
  }, [query]);
  return (
    <section className="search-results" data-testid="search-results" aria-label="search results">
      <header className="search-head">
        <h2>Transcripts matching <q>{query}</q></h2>
        <button type="button" className="quiet" onClick={onClose} aria-label="close search">✕</button>
      </header>
      {state.error && <p className="error" role="alert" data-testid="search-error">{state.error}</p>}
      {!state.results && !state.error && <p className="muted">Searching…</p>}
      {state.results?.length === 0 && <p className="muted">No matches.</p>}
      <ol className="results">
        {state.results?.map((r) => (
          <li key={`${r.session.harness}:${r.session.id}`} className="result" data-key={`${r.session.harness}:${r.session.id}`}>
            <div className="result-head">
              <b>{r.session.title || 'untitled'}</b> <span className="muted">{r.session.harness} · {r.session.id.slice(0, 8)}{r.session.repoRoot ? ` · ${r.session.repoRoot.split('/').pop()}` : ''}{r.session.branch ? `@${r.session.branch}` : ''}</span>
            </div>
            <ul className="hits">
              {r.hits.map((h) => (
                <li key={h.position}>
                  <button type="button" className="hit link" data-testid="search-hit" data-position={h.position} onClick={() => onOpen({ harness: r.session.harness, id: r.session.id, title: r.session.title, position: h.position })}>
                    <span className="role">{h.role}</span> <Snippet hit={h} />
                  </button>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}
