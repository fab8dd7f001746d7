/**
 * A generated pi agent directory (`sessions/--<cwd>--/<ISO>_<uuidv7>.jsonl`) with the records pi 0.73.1
 * writes (../shared/harnesses/samples/pi): the session header, model and thinking-level changes, and per
 * turn the user message, then tool rounds (an assistant message with its tool calls and usage, one
 * toolResult per call carrying the output), then the answer with its usage. Assistant messages carry
 * thinking text, and a fifth of the calls write a file (its content in the call's arguments), so large
 * lines are not only tool results. Sizes have a long tail like Claude's corpus; one in five sessions
 * is named (`session_info`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileTargets } from './claude-corpus.ts';
import { addBytes, corpusOf, emptyMix, writeByTurns } from './mix.ts';
import type { CorpusFile, GeneratedCorpus } from './mix.ts';
import { createTextPool, skewedSize, uuidV7 } from './text-pool.ts';
import type { TextPool } from './text-pool.ts';

export interface PiCorpusOptions {
  /** Directory that becomes pi's agent directory (`PI_CODING_AGENT_DIR`; sessions/ is created inside). */
  agentDir: string;
  files: number;
  totalBytes: number;
  /** Distinct working directories. Default: 40. */
  projects?: number;
  seed?: number;
}

interface Ctx { pool: TextPool; at: number; parent: string | null; parts: string[]; bytes: number; lines: number; mix: Record<string, number> }

/** Per million tokens: input, output, cache read, cache write (what pi multiplies into usage.cost). */
const PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

function emit(ctx: Ctx, record: Record<string, unknown>, kind: string): void {
  ctx.at += 20 + Math.floor(ctx.pool.rng() * 3000);
  const id = ctx.pool.hex(8);
  const line = `${JSON.stringify({ type: record.type, id, parentId: ctx.parent, timestamp: new Date(ctx.at).toISOString(), ...record })}\n`;
  ctx.parent = id;
  const n = Buffer.byteLength(line);
  addBytes(ctx.mix, kind, n);
  ctx.parts.push(line);
  ctx.bytes += n;
  ctx.lines++;
}

function usage(input: number, output: number, cacheRead: number): Record<string, unknown> {
  const cost = { input: (input * PRICE.input) / 1e6, output: (output * PRICE.output) / 1e6, cacheRead: (cacheRead * PRICE.cacheRead) / 1e6, cacheWrite: 0 };
  return { input, output, cacheRead, cacheWrite: 0, totalTokens: input + output + cacheRead, cost: { ...cost, total: cost.input + cost.output + cost.cacheRead } };
}

function assistant(ctx: Ctx, content: unknown[], tokens: number, stopReason: string): void {
  const p = ctx.pool;
  const output = 40 + Math.floor(p.rng() * 900);
  emit(ctx, {
    type: 'message',
    message: { role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(Math.floor(tokens * 0.1), output, Math.floor(tokens * 0.9)), stopReason, timestamp: ctx.at, responseId: `msg_${p.hex(24)}` },
  }, 'assistant');
}

function turn(ctx: Ctx, n: number): void {
  const p = ctx.pool;
  emit(ctx, { type: 'message', message: { role: 'user', content: [{ type: 'text', text: p.take(skewedSize(p.rng, 300, 10)) }], timestamp: ctx.at } }, 'user');
  let tokens = 3000 + n * 1500;
  const rounds = Math.floor(p.rng() * 7);
  for (let r = 0; r < rounds; r++) {
    const calls = p.rng() < 0.2 ? 2 : 1;
    const content: unknown[] = [{ type: 'thinking', thinking: p.take(skewedSize(p.rng, 600, 20)), thinkingSignature: p.hex(skewedSize(p.rng, 400, 40)) }];
    const ids: string[] = [];
    for (let c = 0; c < calls; c++) {
      const id = `toolu_${p.hex(24)}`;
      ids.push(id);
      content.push(p.rng() < 0.2
        ? { type: 'toolCall', id, name: 'write', arguments: { path: `src/${p.hex(6)}.ts`, content: p.take(skewedSize(p.rng, 3000, 50)) } }
        : { type: 'toolCall', id, name: 'bash', arguments: { command: p.take(100) } });
    }
    assistant(ctx, content, tokens, 'toolUse');
    for (const id of ids) {
      const out = p.take(p.rng() < 0.01 ? 100_000 + Math.floor(p.rng() * 200_000) : skewedSize(p.rng, 4000, 20));
      emit(ctx, { type: 'message', message: { role: 'toolResult', toolCallId: id, toolName: 'bash', content: [{ type: 'text', text: out }], isError: false, timestamp: ctx.at } }, 'tool result');
      tokens += 400 + out.length / 4;
    }
  }
  assistant(ctx, [{ type: 'text', text: p.take(skewedSize(p.rng, 800, 20)) }], tokens, 'stop');
}

export function generatePiCorpus(options: PiCorpusOptions): GeneratedCorpus {
  const pool = createTextPool(options.seed ?? 11);
  const projects = options.projects ?? 40;
  const mix = emptyMix();
  const out: CorpusFile[] = [];
  const targets = fileTargets(pool.rng, options.files, options.totalBytes, 2048);
  for (let i = 0; i < options.files; i++) {
    const start = Date.UTC(2026, 8, 1) + i * 45 * 60_000;
    const cwd = `/home/dev/work/project-${i % projects}`;
    const dir = join(options.agentDir, 'sessions', `--${cwd.slice(1).replace(/\//g, '-')}--`);
    mkdirSync(dir, { recursive: true });
    const id = uuidV7(start, pool.rng);
    const stamp = new Date(start).toISOString();
    const path = join(dir, `${stamp.replace(/[:.]/g, '-')}_${id}.jsonl`);
    const ctx: Ctx = { pool, at: start, parent: null, parts: [], bytes: 0, lines: 0, mix };
    // The header has no id nor parent of its own.
    const head = `${JSON.stringify({ type: 'session', version: 3, id, timestamp: stamp, cwd })}\n`;
    ctx.parts.push(head);
    ctx.bytes += Buffer.byteLength(head);
    ctx.lines++;
    addBytes(mix, 'header', Buffer.byteLength(head));
    emit(ctx, { type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' }, 'other');
    emit(ctx, { type: 'thinking_level_change', thinkingLevel: 'medium' }, 'other');
    if (i % 5 === 0) emit(ctx, { type: 'session_info', name: `task ${i}: ${pool.take(30).replace(/\s+/g, ' ')}` }, 'other');
    out.push(writeByTurns(path, ctx, targets[i] as number, (n) => turn(ctx, n)));
  }
  return corpusOf(options.agentDir, out, mix);
}
