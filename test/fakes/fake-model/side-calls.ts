/**
 * Recognising side calls (title generation, job-state classification). They
 * embed the user's prompt, so they are checked before any scripted reply and never consume the queue.
 */
import { bodyField, lastUserText, offersTools, systemText } from './inspect.ts';
import type { FakeRequest, SideCallKind } from './types.ts';

/** Default answers; override per server with `fake.setSideCallReply`. */
export const DEFAULT_SIDE_CALL_REPLIES: Readonly<Record<SideCallKind, string>> = Object.freeze({
  'claude-job-state': JSON.stringify({ state: 'done', detail: 'fake job finished', tempo: 'idle', needs: '', output: { result: 'fake result' } }),
  'claude-label': 'fake-label',
  'codex-title': JSON.stringify({ title: 'Fake task title' }),
  'opencode-title': 'Fake session title',
  'omp-title': 'Fake title',
  // Empty: the server fills the request's own JSON schema (router: complexity_score ≥ 1, next speaker: user).
  'gemini-json': '',
  'gemini-summary': 'Fake summary',
});

/** The JSON schema a Gemini structured side call asks its answer to follow, if any. */
export function geminiResponseSchema(req: FakeRequest): unknown {
  const gc = bodyField(req, 'generationConfig');
  if (typeof gc !== 'object' || gc === null) return undefined;
  const c = gc as Record<string, unknown>;
  return c['responseJsonSchema'] ?? c['responseSchema'] ?? (c['responseMimeType'] === 'application/json' ? {} : undefined);
}

function codexTurnSource(req: FakeRequest): string | undefined {
  const raw = req.headers['x-codex-turn-metadata'];
  if (typeof raw !== 'string') return undefined;
  try {
    const meta: unknown = JSON.parse(raw);
    if (typeof meta === 'object' && meta !== null && 'thread_source' in meta && typeof meta.thread_source === 'string') return meta.thread_source;
  } catch {}
  return undefined;
}

export function detectSideCall(req: FakeRequest): SideCallKind | undefined {
  if (req.protocol === 'anthropic-messages') {
    // Claude's --bg side calls are non-streaming and offer no tools.
    if (req.stream || offersTools(req)) return undefined;
    if (/decide which of four states/i.test(systemText(req))) return 'claude-job-state';
    if (/Respond with ONLY the label\.?\s*$/.test(lastUserText(req))) return 'claude-label';
    return undefined;
  }
  if (req.protocol === 'responses') {
    if (codexTurnSource(req) === 'thread_title') return 'codex-title';
    const text = bodyField(req, 'text');
    const format = typeof text === 'object' && text !== null && 'format' in text ? text.format : undefined;
    const isSchema = typeof format === 'object' && format !== null && 'type' in format && format.type === 'json_schema';
    if (isSchema && /Generate a concise, single-line task title/i.test(lastUserText(req))) return 'codex-title';
    return undefined;
  }
  if (req.protocol === 'gemini') {
    // Main turns stream; Gemini CLI's side calls (router, next speaker, session summary) do not.
    if (req.stream) return undefined;
    if (geminiResponseSchema(req) !== undefined) return 'gemini-json';
    return offersTools(req) ? undefined : 'gemini-summary';
  }
  if (req.protocol === 'chat-completions') {
    if (/^\s*You are a title generator/i.test(systemText(req))) return 'opencode-title';
    if (!offersTools(req) && /^<user>\n/.test(lastUserText(req))) return 'omp-title';
  }
  return undefined;
}
