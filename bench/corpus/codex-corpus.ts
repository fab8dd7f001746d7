/**
 * A generated CODEX_HOME (`sessions/YYYY/MM/DD/rollout-<date>T<time>-<uuidv7>.jsonl`) with the record
 * mix of real 0.171.0 rollouts: a ~21 KB
 * session_meta (base instructions), developer and context messages and a world_state per thread;
 * per turn a turn_context, the user message and its item_completed; per tool round a reasoning item,
 * the function_call, a CommandExecution item_completed and the function_call_output (both carrying the
 * command output), and token records. Sizes have a long tail like Claude's corpus.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileTargets } from './claude-corpus.ts';
import { addBytes, corpusOf, emptyMix, writeByTurns } from './mix.ts';
import type { CorpusFile, GeneratedCorpus } from './mix.ts';
import { createTextPool, skewedSize, uuidV7 } from './text-pool.ts';
import type { TextPool } from './text-pool.ts';

export interface CodexCorpusOptions {
  /** Directory that becomes CODEX_HOME (sessions/ is created inside). */
  home: string;
  files: number;
  totalBytes: number;
  /** Distinct working directories. Default: 40. */
  projects?: number;
  seed?: number;
  /** Model of each thread's turns, one per file in turn. Default: `gpt-5.5-codex`. */
  models?: string[];
}

interface Ctx { model: string; pool: TextPool; id: string; cwd: string; at: number; ordinal: number; turn: string; parts: string[]; bytes: number; lines: number; mix: Record<string, number> }

// Close to the source's own head test (rolloutIgnore): what it takes without JSON.parse.
const IGNORED = /^\{"timestamp":"[^"]*","ordinal":\d+,"type":"(?:world_state"|response_item","payload":\{"type":"(?:message|reasoning|[a-z_]+_call_output)"|event_msg","payload":\{"type":"item_completed")/;

function emit(ctx: Ctx, type: string, payload: Record<string, unknown>): void {
  ctx.at += 20 + Math.floor(ctx.pool.rng() * 3000);
  const line = `${JSON.stringify({ timestamp: new Date(ctx.at).toISOString(), ordinal: ctx.ordinal++, type, payload })}\n`;
  const n = Buffer.byteLength(line);
  addBytes(ctx.mix, IGNORED.test(line) ? 'ignored' : 'parsed', n);
  ctx.parts.push(line);
  ctx.bytes += n;
  ctx.lines++;
}

// Whole numbers, as the API sends them (a fraction makes other tools skip the record).
const usage = (x: number, n = Math.round(x)) => ({ input_tokens: n, cached_input_tokens: Math.floor(n * 0.8), cache_write_input_tokens: 0, output_tokens: 40 + (n % 500), reasoning_output_tokens: 12, total_tokens: n + 40 + (n % 500) });

function header(ctx: Ctx): void {
  const p = ctx.pool;
  emit(ctx, 'session_meta', {
    account_scoped: true, session_id: ctx.id, id: ctx.id, timestamp: new Date(ctx.at).toISOString(), cwd: ctx.cwd, runtime_workspace_roots: [ctx.cwd],
    originator: 'codex-tui', cli_version: '0.171.0', source: 'vscode', thread_source: 'user', model_provider: 'openai',
    base_instructions: { text: p.take(21_000) }, history_mode: 'paginated', context_window: { window_id: uuidV7(ctx.at, p.rng) }, git: { commit_hash: p.hex(40), branch: 'main' },
  });
  emit(ctx, 'response_item', { type: 'message', id: `msg_${uuidV7(ctx.at, p.rng)}`, role: 'developer', content: [{ type: 'input_text', text: p.take(6000) }, { type: 'input_text', text: p.take(3000) }] });
  emit(ctx, 'response_item', { type: 'message', id: `msg_${uuidV7(ctx.at, p.rng)}`, role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${ctx.cwd}</cwd>\n${p.take(700)}</environment_context>` }] });
  emit(ctx, 'world_state', { full: true, state: { agents_md: { text: p.take(4000) }, environments: { environments: { local: { cwd: ctx.cwd, status: 'available', shell: 'bash' } } }, skills: p.take(4000) } });
}

function turn(ctx: Ctx, n: number): void {
  const p = ctx.pool;
  ctx.turn = uuidV7(ctx.at, p.rng);
  const prompt = p.take(skewedSize(p.rng, 300, 10));
  emit(ctx, 'event_msg', { type: 'task_started', turn_attribution: { turn_id: ctx.turn, turn_trigger: 'user', parent_turn_id: null, root_turn_id: ctx.turn }, turn_id: ctx.turn, started_at: Math.floor(ctx.at / 1000), model_context_window: 258400, collaboration_mode_kind: 'default' });
  emit(ctx, 'turn_context', { turn_id: ctx.turn, cwd: ctx.cwd, approval_policy: 'on-request', approvals_reviewer: 'user', permission_profile: { type: 'workspace-write' }, model: ctx.model, collaboration_mode: { mode: 'default', settings: { model: ctx.model, reasoning_effort: 'medium' } }, sandbox_policy: { type: 'workspace-write' } });
  emit(ctx, 'response_item', { type: 'message', id: `msg_${uuidV7(ctx.at, p.rng)}`, role: 'user', content: [{ type: 'input_text', text: prompt }] });
  emit(ctx, 'event_msg', { type: 'item_completed', thread_id: ctx.id, turn_id: ctx.turn, item: { type: 'UserMessage', id: uuidV7(ctx.at, p.rng), content: [{ type: 'text', text: prompt, text_elements: [] }] } });
  let tokens = 3000 + n * 1500;
  const rounds = Math.floor(p.rng() * 7);
  for (let r = 0; r < rounds; r++) {
    const callId = `call_${p.hex(16)}`;
    const cmd = p.take(100);
    emit(ctx, 'response_item', { type: 'reasoning', id: `rs_${p.hex(24)}`, summary: [], encrypted_content: p.hex(skewedSize(p.rng, 3000, 200)) });
    emit(ctx, 'response_item', { type: 'function_call', status: 'completed', id: `fc_${p.hex(16)}`, name: 'exec_command', arguments: JSON.stringify({ cmd, yield_time_ms: 5000 }), call_id: callId });
    emit(ctx, 'token_usage_record', { thread_id: ctx.id, turn_id: ctx.turn, response_id: `resp_${p.hex(16)}`, usage: usage(tokens), turn_token_usage: usage(tokens), thread_token_usage: usage(tokens * 2) });
    const out = p.take(p.rng() < 0.01 ? 100_000 + Math.floor(p.rng() * 200_000) : skewedSize(p.rng, 4000, 20));
    emit(ctx, 'event_msg', { type: 'item_completed', thread_id: ctx.id, turn_id: ctx.turn, item: { type: 'CommandExecution', id: callId, command: cmd, aggregated_output: out, exit_code: 0, process_id: String(1000 + r) } });
    emit(ctx, 'response_item', { type: 'function_call_output', id: `fco_${p.hex(16)}`, call_id: callId, output: [{ type: 'input_text', text: 'Wall time: 0.0048 seconds\nOutput:' }, { type: 'input_text', text: out }] });
    emit(ctx, 'event_msg', { type: 'token_count', info: { total_token_usage: usage(tokens * 2), last_token_usage: usage(tokens), model_context_window: 258400 }, rate_limits: { limit_id: 'codex', primary: { used_percent: 12.5, window_minutes: 300 } } });
    tokens += 400 + out.length / 4;
  }
  const answer = p.take(skewedSize(p.rng, 800, 20));
  emit(ctx, 'event_msg', { type: 'item_completed', thread_id: ctx.id, turn_id: ctx.turn, item: { type: 'AgentMessage', id: `msg_${p.hex(16)}`, content: [{ type: 'Text', text: answer }] } });
  emit(ctx, 'response_item', { type: 'message', status: 'completed', id: `msg_${p.hex(16)}`, role: 'assistant', content: [{ type: 'output_text', text: answer, annotations: [] }] });
  emit(ctx, 'token_usage_record', { thread_id: ctx.id, turn_id: ctx.turn, response_id: `resp_${p.hex(16)}`, usage: usage(tokens), turn_token_usage: usage(tokens), thread_token_usage: usage(tokens * 2) });
  emit(ctx, 'event_msg', { type: 'token_count', info: { total_token_usage: usage(tokens * 2), last_token_usage: usage(tokens), model_context_window: 258400 }, rate_limits: { limit_id: 'codex' } });
  emit(ctx, 'event_msg', { type: 'task_complete', root_turn_id: ctx.turn, turn_id: ctx.turn, last_agent_message: answer, started_at: Math.floor(ctx.at / 1000) - 5, completed_at: Math.floor(ctx.at / 1000), duration_ms: 5000, time_to_first_token_ms: 300 });
}

const pad = (n: number): string => String(n).padStart(2, '0');

export function generateCodexCorpus(options: CodexCorpusOptions): GeneratedCorpus {
  const pool = createTextPool(options.seed ?? 11);
  const projects = options.projects ?? 40;
  const mix = emptyMix();
  const out: CorpusFile[] = [];
  const targets = fileTargets(pool.rng, options.files, options.totalBytes, 4096);
  for (let i = 0; i < options.files; i++) {
    const start = Date.UTC(2026, 8, 1) + i * 45 * 60_000; // spread over ~2 months of day folders
    const d = new Date(start);
    const dir = join(options.home, 'sessions', String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate()));
    mkdirSync(dir, { recursive: true });
    const id = uuidV7(start, pool.rng);
    const stamp = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}`;
    const path = join(dir, `rollout-${stamp}-${id}.jsonl`);
    const ctx: Ctx = { model: (options.models ?? ['gpt-5.5-codex'])[i % (options.models?.length ?? 1)] ?? 'gpt-5.5-codex', pool, id, cwd: `/home/dev/work/project-${i % projects}`, at: start, ordinal: 0, turn: '', parts: [], bytes: 0, lines: 0, mix };
    header(ctx);
    out.push(writeByTurns(path, ctx, targets[i] as number, (n) => turn(ctx, n)));
  }
  return corpusOf(options.home, out, mix);
}
