/**
 * Recognising side calls (title generation, job-state classification — fake-model.md §7). They
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
});

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
  if (req.protocol === 'chat-completions') {
    if (/^\s*You are a title generator/i.test(systemText(req))) return 'opencode-title';
    if (!offersTools(req) && /^<user>\n/.test(lastUserText(req))) return 'omp-title';
  }
  return undefined;
}
