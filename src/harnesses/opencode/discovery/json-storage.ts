/**
 * The legacy JSON store of OpenCode before its SQLite move:
 * `storage/session/<projectID>/ses_*.json` (session info), `storage/message/<sessionID>/msg_*.json`.
 * 1.18.33 creates none of it; machines upgraded from older versions may still hold it. Read-only and
 * incremental: a session is re-read only when its info file or its newest message file changed
 * (message ids sort by creation time, so the newest file is the last name).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isOpenCodeId } from '../ids.ts';
import { isNotRegularFile, readRegularFile, statRegularFile } from '../../../discovery/regular-file/index.ts';
import {
  chooseTitle, count, numberOrNull, stringOrNull, type MessageFacts, type OpenCodeSessionSummary,
} from './summary.ts';

export interface JsonScanCounters {
  filesScanned: number;
  filesSkipped: number;
  /** Of `filesSkipped`: FIFOs, sockets, devices and directories named like a record, never read. */
  notRegular: number;
  malformed: number;
  errors: string[];
}

/** Bigger files are not parsed: a session or message record is a few KB. */
const MAX_RECORD_BYTES = 1 << 20;

export function scanJsonStorage(
  storageDir: string,
  previous: ReadonlyMap<string, OpenCodeSessionSummary>,
  counters: JsonScanCounters,
): Map<string, OpenCodeSessionSummary> {
  const out = new Map<string, OpenCodeSessionSummary>();
  const sessionRoot = path.join(storageDir, 'session');
  for (const project of listDir(sessionRoot, counters)) {
    const projectDir = path.join(sessionRoot, project);
    for (const file of listDir(projectDir, counters)) {
      const id = file.endsWith('.json') ? file.slice(0, -5) : '';
      if (!isOpenCodeId(id)) continue;
      try {
        const s = readSession(storageDir, path.join(projectDir, file), id, previous.get(id), counters);
        if (s) out.set(id, s);
      } catch (e) {
        counters.filesSkipped++;
        if (isNotRegularFile(e)) counters.notRegular++;
        counters.errors.push(`opencode json ${id}: ${(e as Error).message}`);
      }
    }
  }
  return out;
}

function readSession(
  storageDir: string, file: string, id: string, prev: OpenCodeSessionSummary | undefined, counters: JsonScanCounters,
): OpenCodeSessionSummary | undefined {
  const st = statRegularFile(file); // throws for a FIFO or directory named like a session: counted by the caller
  const msgDir = path.join(storageDir, 'message', id);
  const names = listDir(msgDir, counters).filter((n) => n.startsWith('msg_') && n.endsWith('.json')).sort();
  const last = names.at(-1);
  const lastSt = last ? statOrNull(path.join(msgDir, last)) : null;
  const key = `json|${st.mtimeMs}:${st.size}|${names.length}|${last ?? ''}:${lastSt?.mtimeMs ?? 0}:${lastSt?.size ?? 0}`;
  if (prev && prev.store === 'json' && prev.key === key) return prev;

  const info = readRecord(file, counters);
  if (!info) return undefined;
  if (stringOrNull(info.parentID)) return undefined; // subagent session: its parent stands for it
  const time = obj(info.time);
  const s: OpenCodeSessionSummary = {
    id, store: 'json', key, title: '', directory: stringOrNull(info.directory), model: null,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0,
    createdMs: numberOrNull(time.created), updatedMs: numberOrNull(time.updated),
    lastUser: null, lastAssistant: null, runningTool: null,
  };
  for (const name of names) {
    const m = readRecord(path.join(msgDir, name), counters);
    if (!m) continue;
    const facts = toFacts(name.slice(0, -5), m);
    if (!facts) continue;
    if (facts.role === 'user') s.lastUser = facts;
    else {
      s.lastAssistant = facts;
      s.model = facts.model ?? s.model;
      const t = obj(m.tokens);
      const cache = obj(t.cache);
      s.tokens.input += count(t.input);
      s.tokens.output += count(t.output) + count(t.reasoning);
      s.tokens.cacheRead += count(cache.read);
      s.tokens.cacheWrite += count(cache.write);
      s.costUsd = (s.costUsd ?? 0) + count(m.cost);
    }
  }
  s.title = chooseTitle(stringOrNull(info.title), null);
  return s;
}

function toFacts(id: string, m: Record<string, unknown>): MessageFacts | null {
  if (m.role !== 'user' && m.role !== 'assistant') return null;
  const time = obj(m.time);
  return {
    id, role: m.role, createdMs: numberOrNull(time.created) ?? 0, completedMs: numberOrNull(time.completed),
    error: stringOrNull(obj(m.error).name), finish: stringOrNull(m.finish), model: stringOrNull(m.modelID),
  };
}

function readRecord(file: string, counters: JsonScanCounters): Record<string, unknown> | null {
  try {
    const text = readRegularFile(file, MAX_RECORD_BYTES).bytes.toString('utf8');
    counters.filesScanned++;
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch (e) {
    if (isNotRegularFile(e)) counters.notRegular++;
    if ((e as NodeJS.ErrnoException).code) { counters.filesSkipped++; return null; } // unreadable, not a file, too large
  }
  counters.malformed++;
  return null;
}

function listDir(dir: string, counters: JsonScanCounters): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') { counters.filesSkipped++; if (code !== 'ENOTDIR') counters.errors.push(`opencode json ${dir}: ${code}`); }
    return [];
  }
}

function statOrNull(p: string): fs.Stats | null {
  try { return fs.statSync(p); } catch { return null; }
}

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
