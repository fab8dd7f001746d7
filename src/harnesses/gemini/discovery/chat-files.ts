/**
 * Where Gemini CLI keeps its chats, listed tolerantly: `<home>/tmp/<project>/chats/session-*.jsonl`,
 * the project's absolute path in `<home>/tmp/<project>/.project_root` (the project directory is named
 * by a short slug of the path; `projects.json` maps path → slug too, the fallback when the file is
 * missing). A subagent's chats sit in a subdirectory of `chats/` and are not sessions of their own.
 * Links are followed only when they resolve inside the home; FIFOs and devices are never opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isNotRegularFile, outsideMessage, readRegularText, resolvesInside, statRegularFile } from '../../../discovery/regular-file/index.ts';

export interface ChatFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** The project's directory as Gemini recorded it; null when not recorded. */
  cwd: string | null;
}

export interface ChatListing {
  files: ChatFile[];
  /** Entries named like a chat file that are not readable regular files, or links out of the home. */
  skipped: number;
  /** Of `skipped`: FIFOs, sockets, devices and directories, never read. */
  notRegular: number;
  errors: string[];
}

const SMALL = 64 * 1024;

function entries(dir: string, out: ChatListing, missingOk: boolean): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!(missingOk && (code === 'ENOENT' || code === 'ENOTDIR'))) out.errors.push(`${dir}: ${code ?? String(e)}`);
    return [];
  }
}

/** `projects.json`'s path → slug map, inverted; empty when absent or unreadable. */
function slugPaths(home: string): Map<string, string> {
  const out = new Map<string, string>();
  try {
    const doc = JSON.parse(readRegularText(path.join(home, 'projects.json'), 4 * 1024 * 1024)) as { projects?: Record<string, unknown> };
    for (const [p, slug] of Object.entries(doc.projects ?? {})) if (typeof slug === 'string' && path.isAbsolute(p)) out.set(slug, p);
  } catch {
    // No registry (older versions, a fresh home): the .project_root files are the only source.
  }
  return out;
}

function projectRoot(dir: string, fallback: string | undefined): string | null {
  try {
    const p = readRegularText(path.join(dir, '.project_root'), SMALL).trim();
    if (path.isAbsolute(p) && !p.includes('\n')) return p;
  } catch {
    // Missing or not a file: fall back to projects.json.
  }
  return fallback ?? null;
}

export function listChatFiles(home: string): ChatListing {
  const out: ChatListing = { files: [], skipped: 0, notRegular: 0, errors: [] };
  const tmp = path.join(home, 'tmp');
  let slugs: Map<string, string> | undefined;
  for (const project of entries(tmp, out, true)) {
    const dir = path.join(tmp, project.name);
    if (project.isSymbolicLink() ? !resolvesInside(dir, [home]) : !project.isDirectory()) continue;
    const chats = entries(path.join(dir, 'chats'), out, true).filter((e) => e.name.startsWith('session-') && e.name.endsWith('.jsonl'));
    if (chats.length === 0) continue;
    slugs ??= slugPaths(home);
    const cwd = projectRoot(dir, slugs.get(project.name));
    for (const e of chats) addFile(path.join(dir, 'chats', e.name), e, cwd, home, out);
  }
  return out;
}

function addFile(full: string, e: fs.Dirent, cwd: string | null, home: string, out: ChatListing): void {
  if (e.isSymbolicLink() && !resolvesInside(full, [home])) {
    out.skipped++;
    out.errors.push(outsideMessage(full));
    return;
  }
  try {
    const st = statRegularFile(full);
    out.files.push({ path: full, size: st.size, mtimeMs: st.mtimeMs, cwd });
  } catch (err) {
    out.skipped++;
    if (isNotRegularFile(err)) {
      out.notRegular++;
      out.errors.push(err.message);
    }
  }
}
