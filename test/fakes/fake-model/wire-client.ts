/**
 * A tiny client for the fake's own tests and for debugging: POSTs a body and collects the reply,
 * splitting an SSE stream into events with arrival times (to check pacing).
 */
export interface WireEvent {
  /** `event:` name, or undefined for bare `data:` lines. */
  event: string | undefined;
  /** Parsed JSON data, or the raw string (`[DONE]`). */
  data: unknown;
  /** ms since the request was sent. */
  atMs: number;
}

export interface WireResponse {
  status: number;
  contentType: string;
  /** Parsed JSON body for non-SSE replies. */
  json: unknown;
  /** Events for SSE replies. */
  events: WireEvent[];
}

function parseData(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export async function postModel(url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<WireResponse> {
  const started = Date.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) return { status: res.status, contentType, json: await res.json(), events: [] };
  const events: WireEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  if (res.body === null) return { status: res.status, contentType, json: undefined, events };
  for await (const chunk of res.body) {
    // Gemini frames events with CRLF; a CR waiting for its LF stays in the buffer until the next chunk.
    buffer = (buffer + decoder.decode(chunk as Uint8Array, { stream: true })).replace(/\r\n/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      events.push({ event, data: parseData(data.join('\n')), atMs: Date.now() - started });
    }
  }
  return { status: res.status, contentType, json: undefined, events };
}
