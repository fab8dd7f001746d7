/**
 * `<COPILOT_HOME>/open-sessions-state.json`: `{ "<id>": { schemaVersion, openedAt, refreshedAt, working } }`
 * for the sessions interactive processes have open, rewritten when a turn starts and ends (not a
 * heartbeat). It names no pid and keeps the entry of a killed process (SIGKILL, and SIGTERM to a
 * resumed session that never got a prompt — observed with 1.0.102), so it says only whether a session
 * already known to be live is busy; it never makes one live.
 */
import path from 'node:path';
import { isNotRegularFile, readRegularText } from '../../../discovery/regular-file/index.ts';

export interface OpenEntry {
  working: boolean;
  /** When `working` last changed (ISO), or null. */
  refreshedAt: string | null;
}

/** The file is one small entry per open session. */
const MAX_BYTES = 1024 * 1024;

export function openStatePath(home: string): string {
  return path.join(home, 'open-sessions-state.json');
}

export function parseOpenState(text: string): Map<string, OpenEntry> {
  const out = new Map<string, OpenEntry>();
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return out;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return out;
  for (const [id, v] of Object.entries(doc as Record<string, unknown>)) {
    if (!v || typeof v !== 'object') continue;
    const e = v as Record<string, unknown>;
    if (typeof e.working !== 'boolean') continue;
    const at = typeof e.refreshedAt === 'string' && Number.isFinite(Date.parse(e.refreshedAt)) ? e.refreshedAt : null;
    out.set(id.toLowerCase(), { working: e.working, refreshedAt: at });
  }
  return out;
}

/** The open-state entries; empty when the file is absent, unreadable or not a regular file (counted). */
export function readOpenState(home: string, onRefused: (message: string, notRegular: boolean) => void): Map<string, OpenEntry> {
  const file = openStatePath(home);
  try {
    return parseOpenState(readRegularText(file, MAX_BYTES));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') onRefused(isNotRegularFile(e) ? e.message : `${file}: ${code ?? String(e)}`, isNotRegularFile(e));
    return new Map();
  }
}
