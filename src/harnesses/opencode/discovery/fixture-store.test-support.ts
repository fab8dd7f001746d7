/**
 * Test helper: builds small hand-made OpenCode stores shaped like 1.18.33's `opencode.db`
 * (the tables and columns the source reads, as 1.18.33 declares them), in WAL mode as OpenCode keeps it.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';

const SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, time_created integer NOT NULL,
  time_updated integer NOT NULL, sandboxes text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, slug text NOT NULL,
  directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL, share_url text, summary_diffs text,
  metadata text, cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL,
  tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL,
  tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text, agent text, model text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
`;

export interface FixtureSession {
  id: string;
  directory: string;
  title?: string;
  parentId?: string | null;
  model?: string | null;
  tokens?: { input?: number; output?: number; reasoning?: number; cacheRead?: number; cacheWrite?: number };
  cost?: number;
  createdMs: number;
  updatedMs?: number;
}

export interface FixtureStore {
  dataDir: string;
  dbPath: string;
  db: Db;
  addSession(s: FixtureSession): void;
  /** Adds a message; `data` is the message JSON (or raw text, to store a malformed row). */
  addMessage(sessionId: string, id: string, createdMs: number, data: object | string, updatedMs?: number): void;
  addPart(sessionId: string, messageId: string, id: string, createdMs: number, data: object | string): void;
  touchSession(id: string, updatedMs: number): void;
  /** Rewrites a part in place, as OpenCode does while a reply streams (its `time_updated` moves). */
  updatePart(id: string, updatedMs: number, data: object): void;
  /** Rewrites a message in place (a reply completed, a prompt given its diff summary). */
  updateMessage(id: string, updatedMs: number, data: object): void;
  close(): void;
}

/** `ses_` + 26 alphanumerics, deterministic from `n` (fixture ids only; real ones encode time). */
export function fixtureSessionId(n: number): string {
  return `ses_${n.toString(16).padStart(12, '0')}Fixture${'x'.repeat(7)}`;
}

export function createFixtureStore(dataDir: string): FixtureStore {
  fs.mkdirSync(dataDir, { recursive: true });
  const dbPath = path.join(dataDir, 'opencode.db');
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.exec(SCHEMA);
  db.prepare(`INSERT INTO project VALUES ('proj1', '/', 'git', NULL, 0, 0, '[]')`).run();
  const text = (d: object | string): string => (typeof d === 'string' ? d : JSON.stringify(d));
  return {
    dataDir, dbPath, db,
    addSession(s) {
      const t = s.tokens ?? {};
      db.prepare(`INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, cost, tokens_input, tokens_output,
        tokens_reasoning, tokens_cache_read, tokens_cache_write, agent, model, time_created, time_updated)
        VALUES (?, 'proj1', ?, 'calm-comet', ?, ?, '1.18.33', ?, ?, ?, ?, ?, ?, 'build', ?, ?, ?)`).run(
        s.id, s.parentId ?? null, s.directory, s.title ?? `New session - ${new Date(s.createdMs).toISOString()}`, s.cost ?? 0,
        t.input ?? 0, t.output ?? 0, t.reasoning ?? 0, t.cacheRead ?? 0, t.cacheWrite ?? 0,
        s.model === undefined ? JSON.stringify({ id: 'fake-model', providerID: 'fake' }) : s.model, s.createdMs, s.updatedMs ?? s.createdMs,
      );
    },
    addMessage(sessionId, id, createdMs, data, updatedMs) {
      db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(id, sessionId, createdMs, updatedMs ?? createdMs, text(data));
    },
    addPart(sessionId, messageId, id, createdMs, data) {
      db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(id, messageId, sessionId, createdMs, createdMs, text(data));
    },
    touchSession(id, updatedMs) {
      db.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(updatedMs, id);
    },
    updatePart(id, updatedMs, data) {
      db.prepare('UPDATE part SET time_updated = ?, data = ? WHERE id = ?').run(updatedMs, text(data), id);
    },
    updateMessage(id, updatedMs, data) {
      db.prepare('UPDATE message SET time_updated = ?, data = ? WHERE id = ?').run(updatedMs, text(data), id);
    },
    close: () => db.close(),
  };
}

/** A user message's JSON as OpenCode writes it. */
export function userMessage(createdMs: number): object {
  return { role: 'user', time: { created: createdMs }, agent: 'build', model: { providerID: 'fake', modelID: 'fake-model' }, summary: { diffs: [] } };
}

/** An assistant message's JSON; omit `completedMs` for a reply whose process died (SIGKILL). */
export function assistantMessage(createdMs: number, opts: { completedMs?: number; finish?: string; error?: string } = {}): object {
  return {
    role: 'assistant', mode: 'build', agent: 'build', cost: 0, modelID: 'fake-model', providerID: 'fake',
    tokens: { input: 10, output: 2, reasoning: 0, cache: { read: 0, write: 0 } },
    time: opts.completedMs === undefined ? { created: createdMs } : { created: createdMs, completed: opts.completedMs },
    ...(opts.finish ? { finish: opts.finish } : {}),
    ...(opts.error ? { error: { name: opts.error, data: { message: 'Aborted' } } } : {}),
  };
}
