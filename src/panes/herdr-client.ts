/**
 * herdr's socket API: newline-delimited JSON over a Unix socket,
 * one request per connection — write one line, read one line, the server closes. The server has
 * no timeout for ordinary calls, so every call carries ours.
 */
import { createConnection } from 'node:net';

export class HerdrError extends Error {
  /** herdr's error code (`pane_not_found`, `invalid_request`, ...), or `unreachable` / `timeout` / `bad_reply`. */
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'HerdrError';
    this.code = code;
  }
}

export interface HerdrResult {
  type: string;
  [key: string]: unknown;
}

/** Bound on one reply line, bytes (the server's own request limit is 1 MiB; replies can list many panes). */
const MAX_REPLY = 16 * 1024 * 1024;
let seq = 0;

export function herdrCall(socketPath: string, method: string, params: Record<string, unknown>, timeoutMs = 3000): Promise<HerdrResult> {
  const id = `muster_${process.pid}_${++seq}`;
  return new Promise((resolve, reject) => {
    const sock = createConnection(socketPath);
    let buf = '';
    let settled = false;
    /** Settles once: the first of reply, error, close or timeout wins; the socket is always destroyed. */
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      outcome();
    };
    const fail = (code: string, message: string) => settle(() => reject(new HerdrError(code, message)));
    const timer = setTimeout(() => fail('timeout', `herdr ${method}: no reply within ${timeoutMs} ms`), timeoutMs);
    sock.setEncoding('utf8');
    sock.on('connect', () => sock.write(`${JSON.stringify({ id, method, params })}\n`));
    sock.on('error', (e: NodeJS.ErrnoException) => fail('unreachable', `herdr is not reachable at ${socketPath}: ${e.code ?? e.message}`));
    sock.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl >= 0) settle(() => parseReply(method, buf.slice(0, nl), resolve, reject));
      else if (buf.length > MAX_REPLY) fail('bad_reply', `herdr ${method}: reply too large`);
    });
    sock.on('close', () => fail('bad_reply', `herdr ${method}: connection closed before a full reply`));
  });
}

function parseReply(method: string, line: string, resolve: (r: HerdrResult) => void, reject: (e: HerdrError) => void): void {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    reject(new HerdrError('bad_reply', `herdr ${method}: malformed reply`));
    return;
  }
  const m = msg as { result?: HerdrResult; error?: { code?: unknown; message?: unknown } };
  if (m && typeof m === 'object' && m.error && typeof m.error === 'object') {
    reject(new HerdrError(typeof m.error.code === 'string' ? m.error.code : 'error', typeof m.error.message === 'string' ? m.error.message : 'herdr error'));
  } else if (m && typeof m === 'object' && m.result && typeof m.result === 'object' && typeof m.result.type === 'string') {
    resolve(m.result);
  } else {
    reject(new HerdrError('bad_reply', `herdr ${method}: reply has neither result nor error`));
  }
}
