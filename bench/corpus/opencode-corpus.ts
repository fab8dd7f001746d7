/**
 * A large OpenCode store for the cold-index benchmark: `opencode.db` shaped like 1.18.33's (the
 * fixture schema, WAL mode), `sessions` top-level sessions of `messages` messages each, every message
 * with the parts OpenCode writes (user: a text part; assistant: step-start, text, often a tool call
 * with its output, step-finish), plus a subagent child session for one in ten. Titles are real for
 * most sessions and OpenCode's placeholder for one in eight (the source then looks up the first
 * prompt); one in twenty has a reply still open (no `time.completed`); costs are 0 for a third (a
 * model OpenCode has no price for). Deterministic for a seed; inserted in one transaction.
 */
import path from 'node:path';
import { createFixtureStore } from '../../src/harnesses/opencode/discovery/fixture-store.test-support.ts';
import { createTextPool } from './text-pool.ts';

export interface OpenCodeCorpusOptions {
  /** OpenCode's data directory; the store is `<dataDir>/opencode.db`. */
  dataDir: string;
  sessions: number;
  /** Messages per session (half prompts, half replies). */
  messages: number;
  seed?: number;
}

export interface OpenCodeCorpus {
  dbPath: string;
  /** Top-level sessions (what the source lists). */
  sessions: number;
  messages: number;
  parts: number;
  /** Assistant messages with tokens: the usage records a full read yields. */
  usageRecords: number;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function generateOpenCodeCorpus(o: OpenCodeCorpusOptions): OpenCodeCorpus {
  const pool = createTextPool(o.seed ?? 11);
  const rng = pool.rng;
  const id = (prefix: string, n: number): string => {
    let tail = '';
    for (let i = 0; i < 14; i++) tail += BASE62[Math.floor(rng() * 62)];
    return `${prefix}_${n.toString(16).padStart(12, '0')}${tail}`;
  };
  const store = createFixtureStore(o.dataDir);
  const db = store.db;
  const insSession = db.prepare(`INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, cost, tokens_input,
    tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, agent, model, time_created, time_updated)
    VALUES (?, 'proj1', ?, 'calm-comet', ?, ?, '1.18.33', ?, ?, ?, ?, ?, ?, 'build', ?, ?, ?)`);
  const insMessage = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
  const insPart = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
  const out: OpenCodeCorpus = { dbPath: path.join(o.dataDir, 'opencode.db'), sessions: 0, messages: 0, parts: 0, usageRecords: 0 };
  let seq = 0;
  const t0 = Date.UTC(2026, 8, 1);
  const part = (sid: string, mid: string, at: number, data: object): void => {
    insPart.run(id('prt', ++seq), mid, sid, at, at, JSON.stringify(data));
    out.parts++;
  };

  const writeSession = (n: number, parentId: string | null, messages: number, start: number): string => {
    const sid = `ses_${(0xffffffffffff - n).toString(16).padStart(12, '0')}${id('x', n).slice(-14)}`;
    const model = rng() < 0.5 ? 'claude-sonnet-4-5' : 'gpt-5-codex';
    const priced = rng() > 1 / 3;
    const open = parentId === null && rng() < 0.05;
    const tokens = { input: 0, output: 0, reasoning: 0, read: 0, write: 0, cost: 0 };
    let at = start;
    let firstPrompt = '';
    for (let m = 0; m < messages; m += 2) {
      at += 1000 + Math.floor(rng() * 60_000);
      const uid = id('msg', ++seq);
      insMessage.run(uid, sid, at, at, JSON.stringify({ role: 'user', time: { created: at }, agent: 'build', model: { providerID: 'p', modelID: model }, summary: { diffs: [] } }));
      const prompt = pool.take(40 + Math.floor(rng() * 400));
      firstPrompt ||= prompt;
      part(sid, uid, at, { type: 'text', text: prompt });
      out.messages++;
      if (m + 1 >= messages) break;
      const created = at + 50;
      at += 2000 + Math.floor(rng() * 90_000);
      const last = m + 2 >= messages;
      const t = { input: 2000 + Math.floor(rng() * 30_000), output: 50 + Math.floor(rng() * 2000), reasoning: Math.floor(rng() * 300), read: Math.floor(rng() * 20_000), write: Math.floor(rng() * 5000) };
      const cost = priced ? Number(((t.input + t.output) * 3e-6).toFixed(6)) : 0;
      const completed = last && open ? {} : { completed: at };
      const tool = rng() < 0.5;
      const aid = id('msg', ++seq);
      insMessage.run(aid, sid, created, at, JSON.stringify({
        parentID: uid, role: 'assistant', mode: 'build', agent: 'build', path: { cwd: '/home/dev', root: '/home/dev' }, cost,
        tokens: { total: t.input + t.output, input: t.input, output: t.output, reasoning: t.reasoning, cache: { read: t.read, write: t.write } },
        modelID: model, providerID: 'p', time: { created, ...completed }, ...(completed.completed ? { finish: tool ? 'tool-calls' : 'stop' } : {}),
      }));
      out.messages++;
      out.usageRecords++;
      tokens.input += t.input; tokens.output += t.output; tokens.reasoning += t.reasoning; tokens.read += t.read; tokens.write += t.write; tokens.cost += cost;
      part(sid, aid, created, { type: 'step-start', snapshot: pool.hex(40) });
      part(sid, aid, created + 10, { type: 'text', text: pool.take(100 + Math.floor(rng() * 800)), time: { start: created + 10, end: created + 20 } });
      if (tool) {
        const command = pool.take(20 + Math.floor(rng() * 80));
        const output = pool.take(200 + Math.floor(rng() * 6000));
        const status = last && open ? 'running' : 'completed';
        part(sid, aid, created + 30, { type: 'tool', tool: 'bash', callID: `call_${pool.hex(16)}`, state: { status, input: { command, description: 'run command' }, output, metadata: { output, exit: 0, truncated: false }, title: command, time: { start: created + 30, end: at } } });
      }
      part(sid, aid, at, { reason: tool ? 'tool-calls' : 'stop', snapshot: pool.hex(40), type: 'step-finish', tokens: { input: t.input, output: t.output }, cost });
    }
    const title = rng() < 1 / 8 ? `New session - ${new Date(start).toISOString()}` : firstPrompt.replace(/\s+/g, ' ').slice(0, 60).trim() || 'untitled';
    insSession.run(sid, parentId, `/home/dev/work/project-${n % 50}`, title, tokens.cost, tokens.input, tokens.output, tokens.reasoning, tokens.read, tokens.write,
      JSON.stringify({ id: model, providerID: 'p' }), start, at);
    return sid;
  };

  db.transaction(() => {
    for (let n = 0; n < o.sessions; n++) {
      const start = t0 + n * 600_000;
      const sid = writeSession(n, null, o.messages, start);
      out.sessions++;
      if (n % 10 === 0) writeSession(o.sessions + n, sid, 6, start + 5000);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return out;
}
