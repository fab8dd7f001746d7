/**
 * Copilot CLI keeps one folder per session: `<COPILOT_HOME>/session-state/<uuid>/` with
 * `workspace.yaml` (written at start), `events.jsonl` (from the first prompt on) and, while a process
 * has the session open, `inuse.<pid>.lock` (holding the pid) beside `inuse.<pid>.hold` (flocked by it).
 * Listing is tolerant: a folder linked from elsewhere is entered only when it resolves inside the home;
 * files are stat'ed or opened as regular files only (a FIFO named `workspace.yaml` is never read).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isUuid } from '../../../core/ids.ts';
import { isNotRegularFile, outsideMessage, readRegularText, resolvesInside, statRegularFile } from '../../../discovery/regular-file/index.ts';
import { parseWorkspace, type Workspace } from './workspace-yaml.ts';

export interface SessionDir {
  id: string;
  dir: string;
  workspace: Workspace | null;
  /** events.jsonl, when it exists as a regular file. */
  events: { path: string; size: number; mtimeMs: number } | null;
  /** Pids named by `inuse.<pid>.lock` files (the lock says who claims it; the flock says whether it holds). */
  inusePids: number[];
}

export interface DirListing {
  dirs: SessionDir[];
  filesScanned: number;
  /** Unreadable or foreign entries (a link leading outside the home, a FIFO named like a session file). */
  filesSkipped: number;
  notRegular: number;
  errors: string[];
}

/** workspace.yaml is a few hundred bytes; anything far larger is not Copilot's. */
const WORKSPACE_MAX = 64 * 1024;
const INUSE = /^inuse\.(\d{1,9})\.lock$/;

export function sessionStateDir(home: string): string {
  return path.join(home, 'session-state');
}

/** The hold file whose flock says `pid` has the session open. */
export function holdPath(dir: string, pid: number): string {
  return path.join(dir, `inuse.${pid}.hold`);
}

/** Parsed workspace.yaml files by path, re-read only when their size or mtime changed. */
export type WorkspaceCache = Map<string, { size: number; mtimeMs: number; workspace: Workspace }>;

export function listSessionDirs(home: string, only?: string, cache: WorkspaceCache = new Map()): DirListing {
  const root = sessionStateDir(home);
  const out: DirListing = { dirs: [], filesScanned: 0, filesSkipped: 0, notRegular: 0, errors: [] };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') out.errors.push(`${root}: ${code ?? String(e)}`);
    return out;
  }
  for (const e of entries) {
    if (!isUuid(e.name) || (only !== undefined && e.name.toLowerCase() !== only)) continue;
    const dir = path.join(root, e.name);
    if (e.isSymbolicLink() && !resolvesInside(dir, [home])) {
      out.filesSkipped++;
      out.errors.push(outsideMessage(dir));
      continue;
    }
    if (!e.isDirectory() && !e.isSymbolicLink()) continue;
    const read = readDir(dir, e.name.toLowerCase(), home, out, cache);
    if (read) out.dirs.push(read);
  }
  return out;
}

function readDir(dir: string, id: string, home: string, out: DirListing, cache: WorkspaceCache): SessionDir | null {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return null; // not a directory after all, or gone meanwhile
  }
  const inusePids: number[] = [];
  const files = new Map<string, string>();
  for (const e of entries) {
    const m = INUSE.exec(e.name);
    if (m) inusePids.push(Number(m[1]));
    if (e.name !== 'workspace.yaml' && e.name !== 'events.jsonl') continue;
    const file = path.join(dir, e.name);
    if (e.isSymbolicLink() && !resolvesInside(file, [home])) {
      out.filesSkipped++;
      out.errors.push(outsideMessage(file));
      continue;
    }
    files.set(e.name, file);
  }
  const ws = files.get('workspace.yaml');
  const ev = files.get('events.jsonl');
  return {
    id, dir,
    workspace: ws === undefined ? null : readWorkspace(ws, out, cache),
    events: ev === undefined ? null : statEvents(ev, out),
    inusePids: inusePids.sort((a, b) => a - b),
  };
}

function refuse(file: string, e: unknown, out: DirListing): null {
  out.filesSkipped++;
  if (isNotRegularFile(e)) {
    out.notRegular++;
    out.errors.push(e.message);
  } else {
    out.errors.push(`${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  return null;
}

function readWorkspace(file: string, out: DirListing, cache: WorkspaceCache): Workspace | null {
  out.filesScanned++;
  try {
    const st = statRegularFile(file);
    const hit = cache.get(file);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.workspace;
    const workspace = parseWorkspace(readRegularText(file, WORKSPACE_MAX));
    cache.set(file, { size: st.size, mtimeMs: st.mtimeMs, workspace });
    return workspace;
  } catch (e) {
    cache.delete(file);
    return refuse(file, e, out);
  }
}

function statEvents(file: string, out: DirListing): SessionDir['events'] {
  out.filesScanned++;
  try {
    const st = statRegularFile(file);
    return { path: file, size: st.size, mtimeMs: st.mtimeMs };
  } catch (e) {
    return refuse(file, e, out);
  }
}
