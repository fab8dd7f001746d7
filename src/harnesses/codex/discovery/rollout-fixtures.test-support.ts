/**
 * Hand-made Codex rollout lines for tests, shaped like the records Codex 0.171.0 writes, cut to the
 * fields Muster reads plus some bulk.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TID = '01a22b39-94a8-7390-a4d1-3b90055e3b40';
export const TURN = '01a22b39-94c5-79f0-b8d5-b29a0d361cf2';

let clock = Date.parse('2026-11-30T06:52:03.600Z');
const ts = (): string => new Date((clock += 7)).toISOString();
let ordinal = 0;
const line = (type: string, payload: unknown): string => JSON.stringify({ timestamp: ts(), ordinal: ordinal++, type, payload });

const usage = (i: number, o: number, cached = 0): Record<string, number> => ({
  input_tokens: i, cached_input_tokens: cached, cache_write_input_tokens: 0, output_tokens: o, reasoning_output_tokens: 0, total_tokens: i + o,
});

export const rec = {
  meta: (id = TID, cwd = '/home/dev/project', source = 'exec', branch: string | null = 'master'): string => line('session_meta', {
    account_scoped: true, session_id: id, id, timestamp: ts(), cwd, originator: source === 'exec' ? 'codex_exec' : 'codex-tui',
    cli_version: '0.171.0', source, thread_source: 'user', model_provider: 'fake',
    base_instructions: { text: 'You are a coding agent running in the Codex CLI. '.repeat(200) }, history_mode: 'paginated',
    git: branch === null ? null : { commit_hash: '02a650ba', branch },
  }),
  taskStarted: (turn = TURN, trigger = 'exec'): string => line('event_msg', {
    type: 'task_started', turn_attribution: { turn_id: turn, turn_trigger: trigger }, turn_id: turn, started_at: 1796021523, model_context_window: 258400,
  }),
  developer: (): string => line('response_item', { type: 'message', id: 'msg_dev', role: 'developer', content: [{ type: 'input_text', text: '<skills_instructions>'.padEnd(5000, 'x') }] }),
  worldState: (): string => line('world_state', { full: true, state: { agents_md: {}, blob: 'y'.repeat(3000) } }),
  turnContext: (model = 'fake-model', cwd = '/home/dev/project', turn = TURN): string => line('turn_context', { turn_id: turn, cwd, approval_policy: 'never', model }),
  userItem: (text: string, turn = TURN): string => line('event_msg', {
    type: 'item_completed', thread_id: TID, turn_id: turn, item: { type: 'UserMessage', id: 'u1', content: [{ type: 'text', text, text_elements: [] }] },
  }),
  userMessage: (text: string): string => line('response_item', { type: 'message', id: 'msg_u', role: 'user', content: [{ type: 'input_text', text }] }),
  agentItem: (text: string, turn = TURN): string => line('event_msg', {
    type: 'item_completed', thread_id: TID, turn_id: turn, item: { type: 'AgentMessage', id: 'a1', content: [{ type: 'Text', text }] },
  }),
  functionCall: (callId: string, name = 'exec_command', namespace?: string): string => line('response_item', {
    type: 'function_call', status: 'completed', id: 'fc_1', name, ...(namespace ? { namespace } : {}), arguments: '{"cmd":"sleep 1"}', call_id: callId,
  }),
  functionOutput: (callId: string, bulk = 2000): string => line('response_item', {
    type: 'function_call_output', id: 'fco_1', call_id: callId, output: [{ type: 'input_text', text: 'o'.repeat(bulk) }],
  }),
  commandItem: (): string => line('event_msg', {
    type: 'item_completed', thread_id: TID, turn_id: TURN, item: { type: 'CommandExecution', id: 'c1', command: 'ls', aggregated_output: 'z'.repeat(4000), exit_code: 0 },
  }),
  /** One response's usage; `thread` is the thread's running total (default: this response alone). */
  usageRecord: (i: number, o: number, cached = 0, thread = usage(i, o, cached)): string => line('token_usage_record', {
    thread_id: TID, turn_id: TURN, usage: usage(i, o, cached), turn_token_usage: usage(i, o, cached), thread_token_usage: thread,
  }),
  /** The thread's running total (i, o, cached); `last` is the latest response's usage (default: the total). */
  tokenCount: (i: number, o: number, cached = 0, last = usage(i, o, cached)): string => line('event_msg', {
    type: 'token_count', info: { total_token_usage: usage(i, o, cached), last_token_usage: last, model_context_window: 258400 }, rate_limits: { limit_id: 'codex' },
  }),
  /** Written when `codex exec -m M resume` (or a TUI's /model) changes the thread's model. */
  settingsApplied: (model: string): string => line('event_msg', {
    type: 'thread_settings_applied', thread_id: TID, thread_settings: { model, model_provider_id: 'openai', approval_policy: 'never' },
  }),
  taskComplete: (msg = 'hi from fake model', turn = TURN): string => line('event_msg', { type: 'task_complete', turn_id: turn, last_agent_message: msg, duration_ms: 193 }),
  turnAborted: (turn = TURN): string => line('event_msg', { type: 'turn_aborted', turn_id: turn, reason: 'interrupted', duration_ms: 3741 }),
};

/** A complete one-turn `codex exec` rollout (103 in / 7 out tokens). */
export function execRollout(id = TID, cwd = '/home/dev/project', prompt = 'say hi'): string[] {
  return [
    rec.meta(id, cwd), rec.taskStarted(), rec.developer(), rec.worldState(), rec.turnContext('fake-model', cwd), rec.userMessage(prompt),
    rec.userItem(prompt), rec.agentItem('hi'), rec.usageRecord(103, 7), rec.tokenCount(103, 7), rec.taskComplete(),
  ];
}

/**
 * `codex exec -m gpt-5-codex "first turn"` then `codex exec -m gpt-5-mini resume <id> "second turn"`, in the
 * order 0.171.0 writes them (observed against the fake model: the resume appends settings records, then a
 * turn whose turn_context names the new model; token totals keep running across the resume). 100 in / 10
 * out per turn.
 */
export function modelSwitchRollout(id = TID): string[] {
  const second = '01a23172-91cc-7132-9cb3-01f9648a1c63';
  const one = usage(100, 10);
  return [
    rec.meta(id), rec.taskStarted(), rec.developer(), rec.worldState(), rec.turnContext('gpt-5-codex'), rec.settingsApplied('gpt-5-codex'),
    rec.userItem('first turn'), rec.usageRecord(100, 10), rec.tokenCount(100, 10), rec.taskComplete(),
    rec.settingsApplied('gpt-5-mini'), rec.settingsApplied('gpt-5-mini'), rec.taskStarted(second), rec.worldState(),
    rec.turnContext('gpt-5-mini', '/home/dev/project', second), rec.userItem('second turn', second),
    rec.usageRecord(100, 10, 0, usage(200, 20)), rec.tokenCount(200, 20, 0, one), rec.taskComplete('done', second),
  ];
}

/** Writes `lines` as a rollout under `home/sessions/YYYY/MM/DD/`; returns its path. */
export function writeRollout(home: string, id: string, lines: string[], opts: { trailingNewline?: boolean; dir?: string } = {}): string {
  const dir = opts.dir ?? join(home, 'sessions', '2026', '11', '30');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `rollout-2026-11-30T06-52-03-${id}.jsonl`);
  writeFileSync(path, lines.join('\n') + (opts.trailingNewline === false ? '' : '\n'));
  return path;
}
