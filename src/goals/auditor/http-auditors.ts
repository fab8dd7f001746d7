/**
 * HTTP auditor providers: `anthropic/<model>` (Messages API) and `openai/<model>` (OpenAI-compatible
 * chat completions — also Ollama, vLLM, llama.cpp and other local servers). Base URL and key come from
 * the options (the factory fills them from the environment). Contract: never throws (port.ts).
 */
import type { AuditResult, Auditor, FetchFn } from './port.ts';
import { AUDIT_SYSTEM, auditPrompt, parseVerdict } from './verdict.ts';

export interface HttpAuditorOptions {
  model: string;
  /** Without a trailing `/v1` for Anthropic (as ANTHROPIC_BASE_URL); with it for OpenAI (as OPENAI_BASE_URL). */
  baseUrl: string;
  apiKey: string;
  /** Default: globalThis.fetch. */
  fetch?: FetchFn;
  /** Output token cap of one audit. Default: 1024. */
  maxTokens?: number;
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

async function post(fetchFn: FetchFn, url: string, headers: Record<string, string>, body: unknown, timeoutMs: number): Promise<{ ok: true; json: unknown } | { ok: false; error: string }> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const res = await fetchFn(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: ctl.signal });
    const text = await res.text();
    if (res.status < 200 || res.status >= 300) return { ok: false, error: `auditor HTTP ${res.status}: ${text.slice(0, 200)}` };
    try {
      return { ok: true, json: JSON.parse(text) as unknown };
    } catch {
      return { ok: false, error: 'auditor sent a body that is not JSON' };
    }
  } catch (e) {
    return { ok: false, error: ctl.signal.aborted ? `auditor timed out after ${timeoutMs} ms` : `auditor unreachable: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

function defaultFetch(): FetchFn {
  return (url, init) => globalThis.fetch(url, init);
}

export function createAnthropicAuditor(o: HttpAuditorOptions): Auditor {
  const fetchFn = o.fetch ?? defaultFetch();
  return {
    spec: `anthropic/${o.model}`,
    async audit(req): Promise<AuditResult> {
      const body = { model: o.model, max_tokens: o.maxTokens ?? 1024, system: AUDIT_SYSTEM, messages: [{ role: 'user', content: auditPrompt(req.objective, req.report) }] };
      const r = await post(fetchFn, `${trimSlash(o.baseUrl)}/v1/messages`, { 'x-api-key': o.apiKey, 'anthropic-version': '2023-06-01' }, body, req.timeoutMs);
      if (!r.ok) return { ok: false, error: r.error, tokens: 0 };
      const m = r.json as { content?: { type?: string; text?: string }[]; usage?: Record<string, unknown> };
      const u = m.usage ?? {};
      const tokens = num(u.input_tokens) + num(u.output_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens);
      const text = (m.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('');
      const v = parseVerdict(text);
      return v.ok ? { ok: true, verdict: v.verdict, tokens } : { ok: false, error: v.error, tokens };
    },
  };
}

export function createOpenAiAuditor(o: HttpAuditorOptions): Auditor {
  const fetchFn = o.fetch ?? defaultFetch();
  return {
    spec: `openai/${o.model}`,
    async audit(req): Promise<AuditResult> {
      const body = {
        model: o.model,
        max_tokens: o.maxTokens ?? 1024,
        messages: [{ role: 'system', content: AUDIT_SYSTEM }, { role: 'user', content: auditPrompt(req.objective, req.report) }],
      };
      const headers: Record<string, string> = o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {};
      const r = await post(fetchFn, `${trimSlash(o.baseUrl)}/chat/completions`, headers, body, req.timeoutMs);
      if (!r.ok) return { ok: false, error: r.error, tokens: 0 };
      const m = r.json as { choices?: { message?: { content?: unknown } }[]; usage?: Record<string, unknown> };
      const tokens = num(m.usage?.prompt_tokens) + num(m.usage?.completion_tokens);
      const content = m.choices?.[0]?.message?.content;
      const v = parseVerdict(typeof content === 'string' ? content : '');
      return v.ok ? { ok: true, verdict: v.verdict, tokens } : { ok: false, error: v.error, tokens };
    },
  };
}
