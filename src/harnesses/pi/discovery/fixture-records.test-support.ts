/**
 * Builders of small hand-made pi/omp session records for the tests of both sources, shaped like the
 * records pi 0.73.1 and omp 18.2.3 write (key order included: the tool-result head match relies on it).
 */
import fs from 'node:fs';
import path from 'node:path';

let seq = 0;
const rid = (): string => (0x10000000 + ++seq).toString(16);

export function header(id: string, cwd: string, ts: string): object {
  return { type: 'session', version: 3, id, timestamp: ts, cwd };
}

export function piModelChange(modelId: string, ts: string): object {
  return { type: 'model_change', id: rid(), parentId: null, timestamp: ts, provider: 'fakeoai', modelId };
}

export function ompModelChange(model: string, ts: string): object {
  return { type: 'model_change', id: rid(), parentId: null, timestamp: ts, model, resolvedModelIsFallback: false };
}

export function user(text: string, ts: string): object {
  return { type: 'message', id: rid(), parentId: rid(), timestamp: ts, message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.parse(ts) } };
}

export interface AssistantSpec {
  ts: string;
  text?: string;
  calls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  stopReason?: string;
  model?: string;
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** USD total carried in usage.cost; omit the cost object entirely with `null`. */
  cost?: number | null;
}

export function assistant(a: AssistantSpec): object {
  const u = a.usage ?? { input: 10, output: 2 };
  const usage: Record<string, unknown> = { input: u.input, output: u.output, cacheRead: u.cacheRead ?? 0, cacheWrite: u.cacheWrite ?? 0, totalTokens: u.input + u.output };
  if (a.cost !== null) usage['cost'] = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: a.cost ?? 0 };
  const content = [
    ...(a.text !== undefined ? [{ type: 'text', text: a.text }] : []),
    ...(a.calls ?? []).map((c) => ({ type: 'toolCall', ...c })),
  ];
  return {
    type: 'message', id: rid(), parentId: rid(), timestamp: a.ts,
    message: { role: 'assistant', content, api: 'openai-completions', provider: 'fakeoai', model: a.model ?? 'fake-model', usage, stopReason: a.stopReason ?? (a.calls ? 'toolUse' : 'stop'), timestamp: Date.parse(a.ts) },
  };
}

export function toolResult(toolCallId: string, text: string, ts: string): object {
  return { type: 'message', id: rid(), parentId: rid(), timestamp: ts, message: { role: 'toolResult', toolCallId, toolName: 'bash', content: [{ type: 'text', text }], isError: false, timestamp: Date.parse(ts) } };
}

export function sessionInfo(name: string, ts: string): object {
  return { type: 'session_info', id: rid(), parentId: rid(), timestamp: ts, name };
}

/** omp's padded first line. */
export function ompTitle(title: string, updatedAt: string, padTo = 200): object {
  return { type: 'title', v: 1, title, source: 'user', updatedAt, pad: ' '.repeat(Math.max(0, padTo - title.length)) };
}

export function ompTitleChange(title: string, ts: string): object {
  return { type: 'title_change', id: rid(), parentId: rid(), timestamp: ts, title, source: 'user' };
}

export function ompExit(ts: string, reason = 'dispose', kind = 'normal'): object {
  return { type: 'custom', customType: 'session_exit', data: { reason, kind, recordedAt: ts }, id: rid(), parentId: rid(), timestamp: ts };
}

export function ompToolStart(toolCallId: string, ts: string): object {
  return { type: 'custom', customType: 'tool_execution_start', data: { toolCallId, toolName: 'bash', startedAt: ts, args: {} }, id: rid(), parentId: rid(), timestamp: ts };
}

export function jsonl(records: object[]): string {
  return records.map((r) => JSON.stringify(r) + '\n').join('');
}

/** Writes `records` to `file` (creating directories) and returns the path. */
export function writeSession(file: string, records: object[]): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, jsonl(records));
  return file;
}

/** `<ISO>_<id>.jsonl` as pi and omp name session files. */
export function sessionFileName(id: string, ts: string): string {
  return `${ts.replace(/[:.]/g, '-')}_${id}.jsonl`;
}
