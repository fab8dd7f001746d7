/**
 * A small markdown renderer for transcript text that builds React elements only: paragraphs, fenced
 * code, inline code, **bold**, and links whose target is http(s) — any other target (javascript:,
 * data:, relative) stays plain text. Raw HTML in the text is text; nothing reaches innerHTML.
 */
import type { ReactNode } from 'react';

const INLINE = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(\[[^\]\n]+\]\([^)\s]+\))/g;

/** Only absolute http(s) URLs become links. */
export function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  let n = 0;
  for (const m of text.matchAll(INLINE)) {
    const i = m.index ?? 0;
    if (i > at) out.push(text.slice(at, i));
    const k = `${key}-${n++}`;
    const [whole, code, bold, link] = m;
    if (code) out.push(<code key={k}>{code.slice(1, -1)}</code>);
    else if (bold) out.push(<strong key={k}>{bold.slice(2, -2)}</strong>);
    else if (link) {
      const close = link.indexOf('](');
      const label = link.slice(1, close);
      const href = safeHref(link.slice(close + 2, -1));
      out.push(href ? <a key={k} href={href} target="_blank" rel="noreferrer noopener">{label}</a> : <span key={k} className="inert-link">{whole}</span>);
    }
    at = i + whole.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export function SafeMarkdown({ text }: { text: string }) {
  const blocks: ReactNode[] = [];
  const parts = text.split(/^```[^\n]*\n?/m);
  // Even parts are prose, odd parts are fenced code (an unclosed fence runs to the end).
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      blocks.push(<pre key={`c${i}`}><code>{part.replace(/\n$/, '')}</code></pre>);
      return;
    }
    part.split(/\n{2,}/).forEach((para, j) => {
      if (para.trim() === '') return;
      const lines = para.split('\n');
      blocks.push(
        <p key={`p${i}-${j}`}>
          {lines.map((l, k) => (
            <span key={k}>{k > 0 && <br />}{inline(l, `${i}-${j}-${k}`)}</span>
          ))}
        </p>,
      );
    });
  });
  return <div className="md">{blocks}</div>;
}
