/**
 * Test-only builders of small hand-made Claude Code files (shapes copied from real 2.1.332 records,
 * trimmed to the fields Muster reads).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cwdToSlug } from './slug.ts';
import { createTranscriptSummary } from './transcript.ts';
import { foldTranscriptFile } from './transcript-lines.ts';

export const SID = '40437031-5c17-43a7-8062-c5f8980812c9';
export const SID2 = '2e0e7aa2-3d62-481c-8a50-166cd0ac192f';

export function tempHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'muster-claude-'));
}

export interface LineOptions {
  sessionId?: string;
  cwd?: string;
  branch?: string;
  ts?: string;
}

export function userLine(text: string, o: LineOptions = {}): string {
  return JSON.stringify({
    parentUuid: null, isSidechain: false, promptId: 'p1', type: 'user',
    message: { role: 'user', content: text }, uuid: 'u-' + text.length, timestamp: o.ts ?? '2026-11-30T06:52:53.501Z',
    userType: 'external', entrypoint: 'cli', cwd: o.cwd ?? '/home/dev/project', sessionId: o.sessionId ?? SID,
    version: '2.1.332', gitBranch: o.branch ?? 'main',
  });
}

export function toolResultLine(output: string, o: LineOptions = {}): string {
  return JSON.stringify({
    parentUuid: 'a1', isSidechain: false, type: 'user',
    message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: output, is_error: false }] },
    toolUseResult: { stdout: output, stderr: '' }, timestamp: o.ts ?? '2026-11-30T06:53:04.614Z',
    cwd: o.cwd ?? '/home/dev/project', sessionId: o.sessionId ?? SID, gitBranch: o.branch ?? 'main',
  });
}

export interface AssistantOptions extends LineOptions {
  id: string;
  model?: string;
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  content?: 'text' | 'tool_use';
  stop?: string;
  /** The API's request id (absent when the server sends none, as the fake model). */
  requestId?: string;
  /** Set by Claude Code on the messages a fork copied: the session that made the request. */
  requestSessionId?: string;
}

export function assistantLine(o: AssistantOptions): string {
  const content = o.content === 'tool_use'
    ? [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi' } }]
    : [{ type: 'text', text: 'hi from fake model' }];
  return JSON.stringify({
    parentUuid: 'u1', isSidechain: false,
    message: {
      id: o.id, type: 'message', role: 'assistant', model: o.model ?? 'claude-sonnet-4-5-20250929', content,
      stop_reason: o.stop ?? 'end_turn',
      usage: {
        input_tokens: o.input ?? 100, cache_creation_input_tokens: o.cacheWrite ?? 0,
        cache_read_input_tokens: o.cacheRead ?? 0, output_tokens: o.output ?? 10,
      },
    },
    ...(o.requestId ? { requestId: o.requestId } : {}),
    type: 'assistant', uuid: 'a-' + o.id, timestamp: o.ts ?? '2026-11-30T06:52:58.709Z',
    cwd: o.cwd ?? '/home/dev/project', sessionId: o.sessionId ?? SID, gitBranch: o.branch ?? 'main',
    ...(o.requestSessionId ? { requestSessionId: o.requestSessionId } : {}),
  });
}

export function metaLine(type: string, fields: Record<string, unknown>, sessionId = SID): string {
  return JSON.stringify({ type, ...fields, sessionId });
}

/** Writes `projects/<slug of cwd>/<id>.jsonl`; returns its path. */
export function writeTranscript(home: string, id: string, lines: string[], cwd = '/home/dev/project'): string {
  const dir = path.join(home, 'projects', cwdToSlug(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${id}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => l + '\n').join(''));
  return file;
}

export interface RegistryOptions {
  pid: number;
  sessionId?: string;
  procStart?: number;
  cwd?: string;
  status?: string | null;
  waitingFor?: string;
  tmux?: string;
  kind?: string;
  entrypoint?: string;
  startedAt?: number;
  name?: string;
  nameSource?: string;
}

export function registryJson(o: RegistryOptions): string {
  return JSON.stringify({
    pid: o.pid, sessionId: o.sessionId ?? SID, cwd: o.cwd ?? '/home/dev/project', startedAt: o.startedAt ?? 1796021593211,
    procStart: String(o.procStart ?? 1000), version: '2.1.332', kind: o.kind ?? 'interactive', entrypoint: o.entrypoint ?? 'cli',
    ...(o.tmux ? { tmux: o.tmux } : {}), ...(o.name ? { name: o.name, nameSource: o.nameSource ?? 'user' } : {}),
    updatedAt: 1796021600427, status: o.status === undefined ? 'idle' : o.status, statusUpdatedAt: 1796021600427,
    ...(o.waitingFor ? { waitingFor: o.waitingFor } : {}),
  });
}

export function writeRegistry(home: string, o: RegistryOptions): string {
  const dir = path.join(home, 'sessions');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${o.pid}.json`);
  fs.writeFileSync(file, registryJson(o));
  return file;
}

/** A process-table record of a Claude process as the fake proc port takes it. */
export function claudeProc(pid: number, startTicks = 1000): { pid: number; startTicks: number; argv: string[]; exe: string; startedAtMs: number } {
  return { pid, startTicks, argv: ['claude'], exe: '/opt/node_modules/@anthropic-ai/claude-code/bin/claude.exe', startedAtMs: 1796021593000 };
}

/** The line limit the fast-fold tests read with. */
export const MAX_LINE = 8 * 1024 * 1024;

/** A transcript of `lines` (each ended by `ending`) in a fresh directory; returns its path. */
export function writeLines(lines: (string | Buffer)[], ending = '\n'): string {
  const file = path.join(tempHome(), 'a.jsonl');
  fs.writeFileSync(file, Buffer.concat(lines.map((l) => Buffer.concat([typeof l === 'string' ? Buffer.from(l) : l, Buffer.from(ending)]))));
  return file;
}

/**
 * The first pass's fold (no sink, no messages: the WebAssembly loop) against the JavaScript fold of the
 * same bytes (a sink sends it down the line-by-line path), from `from` on a summary folded up to there.
 */
export function assertFoldsAlike(file: string, from = 0, maxLine = MAX_LINE): void {
  const discard = { sessionId: 'a', emit: () => undefined };
  const before = createTranscriptSummary();
  if (from > 0) foldTranscriptFile(file, 0, before, maxLine, discard); // the summary an index entry would hold
  const fast = structuredClone(before);
  const js = structuredClone(before);
  const a = foldTranscriptFile(file, from, fast, maxLine);
  const b = foldTranscriptFile(file, from, js, maxLine, discard);
  assert.deepEqual(fast, js);
  assert.deepEqual(a, b, 'the same offset and counts');
}
