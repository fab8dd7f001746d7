/**
 * How `muster goal run` drives each harness headless, one process per turn: the first turn starts a
 * session, each next turn resumes it by id (harnesses/*.md "Headless driving"). Each adapter reads the
 * harness's machine output into { sessionId, text (the final assistant text), tokens }.
 */
import { randomUUID } from 'node:crypto';
import type { Harness } from '../../core/session.ts';

export interface TurnOutput {
  sessionId: string | null;
  /** The turn's final assistant text; null when the turn ended on a tool result or failed. */
  text: string | null;
  tokens: number;
  model: string | null;
  error: string | null;
}

export interface HeadlessHarness {
  /** argv of the first turn; `preId` is a pre-assigned session id where the harness accepts one. */
  first(prompt: string, preId: string): string[];
  next(sessionId: string, prompt: string): string[];
  parse(stdout: string): TurnOutput;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
type Json = Record<string, unknown>;

function jsonLines(stdout: string): Json[] {
  const out: Json[] = [];
  for (const line of stdout.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      out.push(JSON.parse(t) as Json);
    } catch {
      // Not an event (a warning line); skipped.
    }
  }
  return out;
}

const claude: HeadlessHarness = {
  first: (prompt, preId) => ['claude', '-p', '--output-format', 'json', '--session-id', preId, '--', prompt],
  next: (id, prompt) => ['claude', '-p', '--output-format', 'json', '--resume', id, '--', prompt],
  parse(stdout) {
    const r = jsonLines(stdout).reverse().find((e) => e.type === 'result');
    if (!r) return { sessionId: null, text: null, tokens: 0, model: null, error: 'claude printed no result' };
    const u = (r.usage ?? {}) as Json;
    const models = Object.keys((r.modelUsage ?? {}) as Json);
    return {
      sessionId: typeof r.session_id === 'string' ? r.session_id : null,
      text: r.is_error === true || typeof r.result !== 'string' ? null : r.result,
      tokens: num(u.input_tokens) + num(u.output_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens),
      model: models[0] ?? null,
      error: r.is_error === true ? `claude: ${String(r.result ?? r.subtype)}` : null,
    };
  },
};

const codex: HeadlessHarness = {
  first: (prompt) => ['codex', 'exec', '--json', '--skip-git-repo-check', '--', prompt],
  next: (id, prompt) => ['codex', 'exec', 'resume', '--json', '--skip-git-repo-check', id, '--', prompt],
  parse(stdout) {
    let sessionId: string | null = null;
    let text: string | null = null;
    let tokens = 0;
    let error: string | null = null;
    for (const e of jsonLines(stdout)) {
      const item = (e.item ?? {}) as Json;
      if (e.type === 'thread.started' && typeof e.thread_id === 'string') sessionId = e.thread_id;
      if (e.type === 'turn.started') text = null; // only the last turn's final message is its report
      if (e.type === 'item.completed' && item.type === 'agent_message' && typeof item.text === 'string') text = item.text;
      if (e.type === 'turn.completed') {
        const u = (e.usage ?? {}) as Json;
        tokens += num(u.input_tokens) + num(u.output_tokens);
      }
      if (e.type === 'turn.failed' || e.type === 'error') error = String(((e.error ?? {}) as Json).message ?? e.message ?? 'codex error');
    }
    return { sessionId, text, tokens, model: null, error };
  },
};

const opencode: HeadlessHarness = {
  first: (prompt) => ['opencode', 'run', '--format', 'json', '--', prompt],
  next: (id, prompt) => ['opencode', 'run', '--format', 'json', '-s', id, '--', prompt],
  parse(stdout) {
    let sessionId: string | null = null;
    let step: string[] = [];
    let last: string[] = [];
    let tokens = 0;
    for (const e of jsonLines(stdout)) {
      const part = (e.part ?? {}) as Json;
      if (typeof e.sessionID === 'string') sessionId = e.sessionID;
      if (e.type === 'step_start') step = [];
      if (e.type === 'text' && typeof part.text === 'string') step.push(part.text);
      if (e.type === 'tool_use') step = []; // text before a tool call is not the final report
      if (e.type === 'step_finish') {
        const t = (part.tokens ?? {}) as Json;
        tokens += num(t.input) + num(t.output) + num(((t.cache ?? {}) as Json).read) + num(((t.cache ?? {}) as Json).write);
        if (step.length > 0) last = step;
      }
    }
    const text = last.join('').trim();
    return { sessionId, text: text || null, tokens, model: null, error: sessionId ? null : 'opencode printed no session' };
  },
};

const safePrompt = (p: string) => (p.startsWith('-') ? ` ${p}` : p);

/** pi and omp `--mode json`: the session header names the id; assistant message_end events carry text and usage. */
function piFamily(bin: 'pi' | 'omp'): HeadlessHarness {
  return {
    // pi refuses `--` ("Unknown option"); a leading space keeps a prompt that starts with '-' from reading as a flag.
    first: (prompt) => [bin, '-p', '--mode', 'json', safePrompt(prompt)],
    next: (id, prompt) => [bin, '-p', '--mode', 'json', bin === 'pi' ? '--session' : '--resume', id, safePrompt(prompt)],
    parse(stdout) {
      let sessionId: string | null = null;
      let text: string | null = null;
      let tokens = 0;
      let model: string | null = null;
      for (const e of jsonLines(stdout)) {
        if (e.type === 'session' && typeof e.id === 'string') sessionId = e.id;
        const m = (e.message ?? {}) as Json;
        if (e.type !== 'message_end' || m.role !== 'assistant') continue;
        const u = (m.usage ?? {}) as Json;
        tokens += num(u.totalTokens) || num(u.input) + num(u.output) + num(u.cacheRead) + num(u.cacheWrite);
        if (typeof m.model === 'string') model = m.model;
        const parts = Array.isArray(m.content) ? (m.content as Json[]) : [];
        const t = parts.filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text as string).join('').trim();
        // A message that only calls tools resets the report: tool output is never the report.
        text = t || null;
      }
      return { sessionId, text, tokens, model, error: sessionId ? null : `${bin} printed no session header` };
    },
  };
}

export const HEADLESS: Record<Harness, HeadlessHarness> = { claude, codex, opencode, pi: piFamily('pi'), omp: piFamily('omp') };

export function preassignedId(): string {
  return randomUUID();
}
