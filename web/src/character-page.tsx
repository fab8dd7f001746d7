/**
 * A page on the asking session's character: a speech bubble with the question; clicking it opens
 * the answer card right there (choices, free text, dismiss). The card is portalled to <body> and
 * placed from the bubble's position, so neither the table's scroller nor a character's transform
 * clips or displaces it.
 */
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { PageCard } from './page-card.tsx';
import type { Page } from './types.ts';

interface Props {
  pages: Page[];
  onChanged(): void;
  /** Canvas characters show the question in the bubble; list rows only a count. */
  showQuestion?: boolean;
}

export function CharacterPage({ pages, onChanged, showQuestion = false }: Props) {
  const [at, setAt] = useState<{ left: number; top: number } | null>(null);
  const bubble = useRef<HTMLButtonElement>(null);
  const pop = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!at) return;
    const onDown = (e: PointerEvent) => {
      if (!pop.current?.contains(e.target as Node) && !bubble.current?.contains(e.target as Node)) setAt(null);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setAt(null);
    window.addEventListener('pointerdown', onDown, true);
    window.addEventListener('keydown', onKey);
    return () => (window.removeEventListener('pointerdown', onDown, true), window.removeEventListener('keydown', onKey));
  }, [at]);
  useEffect(() => {
    if (pages.length === 0) setAt(null);
  }, [pages.length]);
  const first = pages[0];
  if (!first) return null;
  const toggle = (e: React.MouseEvent) => {
    e.stopPropagation();
    if (at) return setAt(null);
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    // Below the bubble, kept inside the window.
    setAt({ left: Math.max(8, Math.min(r.left, window.innerWidth - 380)), top: Math.min(r.bottom + 6, window.innerHeight - 240) });
  };
  return (
    <>
      <button
        ref={bubble}
        type="button"
        className={`page-bubble urg-${first.urgency}${showQuestion ? ' with-q' : ''}`}
        title={first.question}
        data-testid="character-page"
        data-page={first.id}
        onClick={toggle}
        onPointerDown={(e) => e.stopPropagation()}
        aria-expanded={at !== null}
      >
        <span className="pb-mark">?</span>
        {showQuestion ? <span className="pb-q">{first.question}</span> : null}
        {pages.length > 1 || !showQuestion ? <span className="pb-n">{pages.length}</span> : null}
      </button>
      {at && createPortal(
        <div ref={pop} className="page-pop" style={{ left: at.left, top: at.top }} role="dialog" aria-label="answer the page" data-testid="page-pop" onClick={(e) => e.stopPropagation()} onPointerDown={(e) => e.stopPropagation()}>
          {pages.map((p) => <PageCard key={p.id} page={p} onDone={onChanged} />)}
        </div>,
        document.body,
      )}
    </>
  );
}
