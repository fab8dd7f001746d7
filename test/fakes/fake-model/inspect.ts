/**
 * Reading what a CLI sent, per protocol: the last user message's text, whether the request carries
 * a tool result (answered with plain text, or the keyword in the last user message would call the
 * tool for ever), the system prompt, whether tools are offered.
 * Tolerant: unexpected shapes read as empty, never throw.
 */
import type { FakeRequest } from './types.ts';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Joined text of a content value: a string, or an array of blocks with `text`. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((b) => (isObject(b) && typeof b['text'] === 'string' ? b['text'] : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function bodyOf(req: FakeRequest): Json {
  return isObject(req.body) ? req.body : {};
}

/** Gemini `contents` as messages: role `model` → `assistant`, `parts` → content blocks. */
function geminiItems(body: Json): unknown[] {
  return asArray(body['contents']).map((c) => {
    if (!isObject(c)) return c;
    return { role: c['role'] === 'model' ? 'assistant' : c['role'], content: asArray(c['parts']), gemini: true };
  });
}

const isFunctionResponse = (p: unknown): boolean => isObject(p) && p['functionResponse'] !== undefined;

/** Items of the conversation: `messages` (Anthropic, Chat), `input` (Responses) or `contents` (Gemini). */
function items(req: FakeRequest): unknown[] {
  const body = bodyOf(req);
  if (req.protocol === 'gemini') return geminiItems(body);
  if (req.protocol === 'responses') return typeof body['input'] === 'string' ? [{ role: 'user', content: body['input'] }] : asArray(body['input']);
  return asArray(body['messages']);
}

/** Text of the last message with role `user` (all its text blocks joined). */
export function lastUserText(req: FakeRequest): string {
  const list = items(req);
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i];
    if (!isObject(m) || m['role'] !== 'user') continue;
    // A Gemini tool result is a user content of functionResponse parts: not what the user typed.
    if (m['gemini'] === true && asArray(m['content']).some(isFunctionResponse)) continue;
    return contentText(m['content']);
  }
  return '';
}

/** Whether the newest turn input is a tool result, so the reply should be plain text. */
export function endsWithToolResult(req: FakeRequest): boolean {
  const last = items(req).at(-1);
  if (!isObject(last)) return false;
  if (req.protocol === 'responses') return typeof last['type'] === 'string' && last['type'].endsWith('_output');
  if (req.protocol === 'chat-completions') return last['role'] === 'tool';
  if (req.protocol === 'gemini') return asArray(last['content']).some(isFunctionResponse);
  // Anthropic: a tool_result block anywhere in the last user message (reminders may follow it).
  return last['role'] === 'user' && asArray(last['content']).some((b) => isObject(b) && b['type'] === 'tool_result');
}

/** System prompt text: Anthropic `system`, Chat `system`/`developer` messages, Responses `instructions`. */
export function systemText(req: FakeRequest): string {
  const body = bodyOf(req);
  const parts: string[] = [];
  if (body['system'] !== undefined) parts.push(contentText(body['system']));
  if (typeof body['instructions'] === 'string') parts.push(body['instructions']);
  if (isObject(body['systemInstruction'])) parts.push(contentText(body['systemInstruction']['parts']));
  for (const m of items(req)) {
    if (isObject(m) && (m['role'] === 'system' || m['role'] === 'developer')) parts.push(contentText(m['content']));
  }
  return parts.join('\n');
}

export function offersTools(req: FakeRequest): boolean {
  const tools = asArray(bodyOf(req)['tools']);
  if (req.protocol === 'gemini') return tools.some((t) => isObject(t) && asArray(t['functionDeclarations']).length > 0);
  return tools.length > 0;
}

/** Model named in the request body (Gemini: in the path), or a fallback. */
export function requestedModel(req: FakeRequest, fallback = 'fake-model'): string {
  if (req.protocol === 'gemini') return /\/models\/([^/:?]+):/.exec(req.path)?.[1] ?? fallback;
  const model = bodyOf(req)['model'];
  return typeof model === 'string' && model !== '' ? model : fallback;
}

export function bodyField(req: FakeRequest, key: string): unknown {
  return bodyOf(req)[key];
}
