/**
 * A generated Claude Code home (`projects/<slug>/<uuid>.jsonl`) with the record mix of real 2.1.332
 * transcripts: per session a header of
 * big attachments (skill listing, prompt snapshot) and one request shape; per turn a prompt snapshot,
 * request blobs and requests; per tool round a tool_use, a tool_result whose output is repeated in
 * toolUseResult (as Claude Code writes it) and again in the next request blob. Sizes are drawn with a
 * long tail, so a few tool outputs are hundreds of KB.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createTextPool, skewedSize, uuidV4 } from './text-pool.ts';
import type { TextPool } from './text-pool.ts';
import { addBytes, emptyMix } from './mix.ts';
import type { CorpusFile, GeneratedCorpus } from './mix.ts';

export interface ClaudeCorpusOptions {
  /** Directory that becomes the Claude config dir (projects/ is created inside). */
  home: string;
  files: number;
  /** Total transcript bytes wanted (approximate: files end on a whole turn). */
  totalBytes: number;
  /** Project directories the transcripts are spread over. Default: 40. */
  projects?: number;
  seed?: number;
  /** Models of the assistant messages, one per file in turn. Default: `claude-opus-5-5` (a name no price table knows). */
  models?: string[];
}

/** Line classes, for the printed mix: 'ignored' = what the Claude source skips by its first bytes. */
type Kind = 'ignored' | 'parsed';

class Writer {
  private parts: string[] = [];
  private pending = 0;
  bytes = 0;
  lines = 0;
  constructor(private fd: number, private mix: ReturnType<typeof emptyMix>, private kindOf: (line: string) => Kind) {}
  line(record: unknown): void {
    const text = `${JSON.stringify(record)}\n`;
    const n = Buffer.byteLength(text);
    addBytes(this.mix, this.kindOf(text), n);
    this.parts.push(text);
    this.pending += n;
    this.bytes += n;
    this.lines++;
    if (this.pending > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.parts.length > 0) writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
}

interface Ctx { pool: TextPool; sessionId: string; cwd: string; at: number; last: string | null; model: string }

function iso(ctx: Ctx): string {
  ctx.at += 50 + Math.floor(ctx.pool.rng() * 4000);
  return new Date(ctx.at).toISOString();
}

/** Fields every conversation record carries after its own. */
function tailFields(ctx: Ctx): Record<string, unknown> {
  return { userType: 'external', entrypoint: 'cli', cwd: ctx.cwd, sessionId: ctx.sessionId, version: '2.1.332', gitBranch: 'main' };
}

function conv(ctx: Ctx, body: Record<string, unknown>): Record<string, unknown> {
  const uuid = uuidV4(ctx.pool.rng);
  const rec = { parentUuid: ctx.last, isSidechain: false, ...body, uuid, timestamp: iso(ctx), ...tailFields(ctx) };
  ctx.last = uuid;
  return rec;
}

function attachment(ctx: Ctx, type: string, chars: number): Record<string, unknown> {
  const uuid = uuidV4(ctx.pool.rng);
  const text = ctx.pool.take(chars);
  const rec = {
    parentUuid: ctx.last, isSidechain: false, attachment: { type, content: text }, type: 'attachment', uuid, timestamp: iso(ctx),
    rendered: [{ content: `<system-reminder>\n${text.slice(0, Math.min(600, text.length))}\n</system-reminder>` }], renderedRole: 'system', ...tailFields(ctx),
  };
  ctx.last = uuid;
  return rec;
}

function apiRequest(ctx: Ctx, shapeHash: string): Record<string, unknown> {
  return {
    type: 'api-request', sessionId: ctx.sessionId, id: uuidV4(ctx.pool.rng), timestamp: iso(ctx), version: '2.1.332', querySource: 'repl_main_thread', shapeHash,
    params: { model: 'claude-opus-5-5', betas: ['claude-code-20250219', 'interleaved-thinking-2025-05-14', 'context-management-2025-06-27'], max_tokens: 128000, thinking: { type: 'adaptive' }, metadata: { user_id: ctx.pool.hex(64) } },
    tail: Array.from({ length: 12 }, () => ctx.pool.hex(64)),
  };
}

function blob(ctx: Ctx, text: string): Record<string, unknown> {
  return { type: 'api-request-blob', sessionId: ctx.sessionId, hash: ctx.pool.hex(64), message: { role: 'user', content: [{ type: 'text', text }] } };
}

function assistant(ctx: Ctx, content: unknown[], stop: string, tokens: number): Record<string, unknown> {
  const message = {
    id: `msg_${ctx.pool.hex(24)}`, type: 'message', role: 'assistant', model: ctx.model, content, stop_reason: stop, stop_sequence: null,
    // Whole numbers, as the API sends them (a fraction makes other tools skip the record).
    usage: { input_tokens: Math.round(tokens), cache_creation_input_tokens: 512, cache_read_input_tokens: Math.round(tokens) * 4, output_tokens: 40 + (Math.round(tokens) % 700), service_tier: 'standard' },
  };
  return conv(ctx, { message, requestId: `req_${ctx.pool.hex(24)}`, type: 'assistant' });
}

function header(w: Writer, ctx: Ctx, shapeHash: string): void {
  const p = ctx.pool;
  w.line({ type: 'mode', mode: 'normal', sessionId: ctx.sessionId });
  w.line({ type: 'permission-mode', permissionMode: 'auto', sessionId: ctx.sessionId });
  w.line({ type: 'atis-latch', atis: '', sessionId: ctx.sessionId });
  for (const [type, chars] of [['environment', 600], ['model', 300], ['deferred_tools_delta', 900], ['agent_listing_delta', 2600], ['skill_listing', 7000], ['auto_mode', 1800], ['session_context', 1000], ['date', 80], ['prompt_snapshot', 26000]] as const) {
    w.line(attachment(ctx, type, chars));
  }
  // The request shape: system prompt and every tool's JSON schema, written once per session.
  w.line({ type: 'api-request-shape', sessionId: ctx.sessionId, shapeHash, timestamp: iso(ctx), version: '2.1.332', shape: { system: [{ type: 'text', text: p.take(25000) }], tools: Array.from({ length: 24 }, (_, i) => ({ name: `Tool${i}`, description: p.take(1200), input_schema: { type: 'object', properties: { command: { type: 'string', description: p.take(200) } } } })) } });
}

function turn(w: Writer, ctx: Ctx, shapeHash: string, n: number): void {
  const p = ctx.pool;
  const prompt = p.take(skewedSize(p.rng, 300, 10));
  const userUuid = uuidV4(p.rng);
  w.line({ type: 'file-history-snapshot', messageId: userUuid, snapshot: { messageId: userUuid, trackedFileBackups: {}, timestamp: new Date(ctx.at).toISOString() }, isSnapshotUpdate: false });
  w.line(conv(ctx, { promptId: uuidV4(p.rng), type: 'user', message: { role: 'user', content: prompt }, permissionMode: 'auto', origin: { kind: 'human' }, promptSource: 'typed', turnPosition: { promptIndex: n, turnIndex: n } }));
  w.line(attachment(ctx, 'deferred_tools_delta', 700));
  w.line(attachment(ctx, 'prompt_snapshot', skewedSize(p.rng, 9000, 2000)));
  w.line(blob(ctx, `<system-reminder>\n${p.take(1500)}</system-reminder>\n${prompt}`));
  w.line(apiRequest(ctx, shapeHash));
  const rounds = Math.floor(p.rng() * 7); // 0..6 tool calls per turn
  let tokens = 3000 + n * 900;
  for (let r = 0; r < rounds; r++) {
    const toolId = `toolu_${p.hex(24)}`;
    w.line(assistant(ctx, [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: p.take(120), description: p.take(40) } }], 'tool_use', tokens));
    // 1 in 100 outputs is a big file read or log dump.
    const out = p.take(p.rng() < 0.01 ? 100_000 + Math.floor(p.rng() * 200_000) : skewedSize(p.rng, 4000, 20));
    w.line(conv(ctx, { type: 'user', message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: out, is_error: false }] }, toolUseResult: { stdout: out, stderr: '', interrupted: false, isImage: false }, sourceToolAssistantUUID: ctx.last }));
    w.line(blob(ctx, out));
    w.line(apiRequest(ctx, shapeHash));
    tokens += 400 + out.length / 4;
  }
  w.line(assistant(ctx, [{ type: 'text', text: p.take(skewedSize(p.rng, 800, 20)) }], 'end_turn', tokens));
  w.line(conv(ctx, { type: 'system', subtype: 'turn_duration', durationMs: 5000 + Math.floor(p.rng() * 90_000), messageCount: 4 + rounds * 3, isMeta: false }));
  w.line({ type: 'last-prompt', lastPrompt: prompt.slice(0, 200), leafUuid: ctx.last, sessionId: ctx.sessionId });
  if (rounds > 0) w.line({ type: 'tools-used', tools: ['Bash'], sessionId: ctx.sessionId });
  w.line({ type: 'cost-state', sessionId: ctx.sessionId, totalCostUSD: Math.round(tokens) / 1e5, totalAPIDuration: 62 * n, totalDuration: 1547 * n, startTime: 1796021722433, modelUsage: { 'claude-opus-5-5': { inputTokens: Math.round(tokens), outputTokens: 7 * n, costUSD: Math.round(tokens) / 1e5 } }, hasUnknownModelCost: false });
}

/** Per-file byte targets: long-tailed around the mean, scaled to sum to `total`. */
export function fileTargets(rng: () => number, files: number, total: number, minBytes: number): number[] {
  const raw = Array.from({ length: files }, () => skewedSize(rng, 1000, 50));
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((r) => Math.max(minBytes, Math.round((r / sum) * total)));
}

export function generateClaudeCorpus(options: ClaudeCorpusOptions): GeneratedCorpus {
  const pool = createTextPool(options.seed ?? 7);
  const projects = options.projects ?? 40;
  const mix = emptyMix();
  // What the source skips unparsed (same first-bytes test it uses: metadata by type, attachments by shape).
  const ignored = /^\{"type":"(?:api-request|file-history-|tools-used"|mode"|permission-mode"|atis-latch")|^\{"parentUuid":(?:null|"[^"]*"),"isSidechain":(?:true|false),"attachment":/;
  const kindOf = (line: string): Kind => (ignored.test(line) ? 'ignored' : 'parsed');
  const out: CorpusFile[] = [];
  const targets = fileTargets(pool.rng, options.files, options.totalBytes, 4096);
  for (let i = 0; i < options.files; i++) {
    const cwd = `/home/dev/work/project-${i % projects}`;
    const dir = join(options.home, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    const sessionId = uuidV4(pool.rng);
    const path = join(dir, `${sessionId}.jsonl`);
    const fd = openSync(path, 'w');
    const w = new Writer(fd, mix, kindOf);
    const models = options.models ?? ['claude-opus-5-5'];
    const ctx: Ctx = { pool, sessionId, cwd, at: Date.UTC(2026, 9, 1) + i * 60_000, last: null, model: models[i % models.length] ?? 'claude-opus-5-5' };
    const shapeHash = pool.hex(64);
    try {
      header(w, ctx, shapeHash);
      for (let n = 1; w.bytes < (targets[i] as number); n++) turn(w, ctx, shapeHash, n);
      w.flush();
    } finally {
      closeSync(fd);
    }
    out.push({ path, bytes: w.bytes, lines: w.lines });
  }
  return { root: options.home, files: out, bytes: out.reduce((a, f) => a + f.bytes, 0), lines: out.reduce((a, f) => a + f.lines, 0), mix };
}
