import { useEffect, useState } from 'react';

interface Status {
  buildId: string;
  pid: number;
  uptimeSeconds: number;
}

type Conn = 'connecting' | 'live' | 'lost';

/** The board shell: daemon identity and the live connection; the session views mount here. */
export function App() {
  const [status, setStatus] = useState<Status | null>(null);
  const [conn, setConn] = useState<Conn>('connecting');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    fetch('/api/status', { credentials: 'same-origin' })
      .then(async (r) => {
        const body = (await r.json()) as Status & { ok: boolean; error?: { message: string } };
        if (!r.ok) throw new Error(body.error?.message ?? `HTTP ${r.status}`);
        setStatus(body);
      })
      .catch((e: Error) => setError(e.message));
    const es = new EventSource('/api/events');
    es.addEventListener('daemon.hello', () => setConn('live'));
    es.onerror = () => setConn('lost');
    return () => es.close();
  }, []);

  return (
    <div className="board">
      <header className="topbar">
        <h1>Muster</h1>
        <span className={`conn conn-${conn}`} data-testid="connection">
          {conn === 'live' ? 'live' : conn === 'lost' ? 'connection lost — retrying' : 'connecting…'}
        </span>
        {status && <span className="ident">{status.buildId} · pid {status.pid}</span>}
      </header>
      <main>
        {error ? <p className="error" role="alert">{error}</p> : <p data-testid="board-shell">Sessions appear here.</p>}
      </main>
    </div>
  );
}
