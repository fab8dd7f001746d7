/**
 * The session panel's message box (issue 21): the text becomes the session's next prompt — through
 * its harness's own channel, else typed into its verified pane; a dormant session is resumed with it.
 * Ctrl/⌘+Enter sends; Enter is a newline (a prompt may span lines). The answer says which channel
 * took it and whether it waits behind the running turn; a refusal says why (busy, not its pane…).
 */
import { useEffect, useState } from 'react';
import { api, ApiError } from './api.ts';
import { checkPrompt, MAX_PROMPT_BYTES } from '../../src/send/text.ts';
import type { Session } from './types.ts';

interface SendAnswer {
  delivered: 'inbox' | 'server' | 'pane' | 'resumed';
  queued: boolean;
  pane?: { manager: string; id: string };
}

function sentMessage(r: SendAnswer): string {
  const how = {
    inbox: 'Sent: Muster\u2019s extension in the session took it.',
    server: 'Sent through the harness\u2019s own server.',
    pane: `Typed into its pane${r.pane ? ` (${r.pane.manager} ${r.pane.id})` : ''}.`,
    resumed: `Resumed in a new pane${r.pane ? ` (${r.pane.manager} ${r.pane.id})` : ''} with it as the first prompt.`,
  }[r.delivered];
  return r.queued ? `${how} It runs once the current turn ends.` : how;
}

function refusal(e: unknown): string {
  if (!(e instanceof ApiError)) return `Could not reach the daemon: ${(e as Error).message}`;
  if (e.code === 'busy') return `Not sent — busy: ${e.message}`;
  if (e.code === 'pane_mismatch') return `Not sent — not its pane: ${e.message}`;
  if (e.status === 404 && e.code === 'not_found') return 'This daemon cannot send messages yet.';
  return `Not sent: ${e.message}`;
}

export function MessageBox({ session: s }: { session: Session }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  useEffect(() => setResult(null), [s.id]);
  const check = text === '' ? null : checkPrompt(text);
  const bytes = check?.ok ? check.bytes : new TextEncoder().encode(text).byteLength;
  const send = async () => {
    if (!check?.ok || busy) return;
    setBusy(true);
    setResult(null);
    try {
      const r = await api<SendAnswer>('POST', `/api/sessions/${encodeURIComponent(s.harness)}/${encodeURIComponent(s.id)}/send`, { text });
      setResult({ ok: true, message: sentMessage(r) });
      setText('');
    } catch (e) {
      setResult({ ok: false, message: refusal(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="message-box" data-testid="message-box" onSubmit={(e) => { e.preventDefault(); void send(); }}>
      <textarea
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void send();
          }
        }}
        placeholder={s.live ? 'Message: its next prompt (Ctrl+Enter sends)' : 'Message: resumes the session with it as the first prompt'}
        aria-label="message"
        rows={3}
      />
      <div className="message-row">
        <span className={`muted${bytes > MAX_PROMPT_BYTES ? ' over' : ''}`}>{bytes > MAX_PROMPT_BYTES * 0.8 ? `${bytes} / ${MAX_PROMPT_BYTES} bytes` : ''}{check && !check.ok ? check.message : ''}</span>
        <button type="submit" className="primary" disabled={busy || !check?.ok}>{busy ? 'Sending…' : 'Send'}</button>
      </div>
      {result && <div className={`outcome ${result.ok ? 'good' : 'bad'}`} role="status" data-testid="message-outcome">{result.message}</div>}
    </form>
  );
}
