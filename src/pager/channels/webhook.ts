/**
 * Webhook notifications: a generic JSON POST of the whole notification, or an ntfy-compatible body
 * (ntfy's JSON publishing: POST to the server root with `{ topic, title, message, click, priority }`,
 * the topic being the URL's last path segment) so a phone running ntfy is reached. Any non-2xx answer
 * or network error is a failure with its reason.
 */
import type { NotificationChannel, PageNotification } from './channel.ts';

export interface PostRequest {
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** Sends one POST; resolves with the status, rejects on network failure or timeout. */
export type PostFn = (url: string, req: PostRequest) => Promise<{ status: number }>;

export interface WebhookChannelOptions {
  url: string;
  format: 'json' | 'ntfy';
  /** Default: global fetch with an abort timeout. */
  post?: PostFn;
  /** Default: 5000. */
  timeoutMs?: number;
}

export const fetchPost: PostFn = async (url, req) => {
  const r = await fetch(url, { method: 'POST', body: req.body, headers: req.headers, signal: AbortSignal.timeout(req.timeoutMs), redirect: 'error' });
  await r.body?.cancel().catch(() => undefined);
  return { status: r.status };
};

const NTFY_PRIORITY = { low: 2, normal: 3, high: 5 } as const;

export function ntfyRequest(url: string, n: PageNotification): { url: string; body: unknown } {
  const u = new URL(url);
  const parts = u.pathname.split('/').filter(Boolean);
  const topic = parts.pop() ?? 'muster';
  u.pathname = `/${parts.join('/')}`;
  return {
    url: u.toString(),
    body: { topic, title: n.title, message: n.message, click: n.url, priority: NTFY_PRIORITY[n.urgency], tags: [n.kind === 'question' ? 'question' : 'bell'] },
  };
}

export function createWebhookChannel(opts: WebhookChannelOptions): NotificationChannel {
  const post = opts.post ?? fetchPost;
  return {
    name: 'webhook',
    available: async () => opts.url !== '',
    async send(n) {
      const target = opts.format === 'ntfy' ? ntfyRequest(opts.url, n) : { url: opts.url, body: { source: 'muster', ...n } };
      try {
        const r = await post(target.url, { body: JSON.stringify(target.body), headers: { 'content-type': 'application/json' }, timeoutMs: opts.timeoutMs ?? 5000 });
        return r.status >= 200 && r.status < 300 ? { ok: true } : { ok: false, error: `webhook answered HTTP ${r.status}` };
      } catch (e) {
        const err = e as Error & { cause?: { code?: string } };
        return { ok: false, error: `webhook unreachable: ${err.cause?.code ?? err.name}: ${err.message}` };
      }
    },
  };
}
