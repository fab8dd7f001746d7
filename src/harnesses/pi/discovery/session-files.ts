/**
 * Where pi and omp keep session files, and listing them tolerantly. Layouts:
 * pi  `<agentDir>/sessions/--<cwd, "/" → "-">--/<ISO>_<id>.jsonl`
 * omp `~/.omp/agent/sessions/-<cwd, "/" → "-">/<ISO>_<id>.jsonl` (plus a sidecar directory per session).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isNotRegularFile, outsideMessage, resolvesInside, statRegularFile } from '../../../discovery/regular-file/index.ts';

export interface SessionFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** The id in the file name (`<ISO>_<id>.jsonl`), when it has one. */
  nameId: string | null;
}

export interface SessionFileListing {
  files: SessionFile[];
  /** Entries named like a session file that are not readable regular files (a directory, a dangling link). */
  skipped: number;
  /** Of `skipped`: FIFOs, sockets, devices and directories named like a session file, never read. */
  notRegular: number;
  errors: string[];
}

const NAME_ID = /_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export function idFromFileName(name: string): string | null {
  return NAME_ID.exec(name)?.[1]?.toLowerCase() ?? null;
}

/** pi's per-cwd directory name: `/home/dev/p` → `--home-dev-p--`. */
export function piSessionDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** omp's per-cwd directory name: `/home/dev/p` → `-home-dev-p`. */
export function ompSessionDirName(cwd: string): string {
  return cwd.replace(/[/\\:]/g, '-');
}

/**
 * Every `*.jsonl` directly in `dir` or one level below (the per-cwd directories). Hidden files
 * (omp's transient `.<session>.jsonl.lock`) are not sessions. Linked directories are not entered, and a
 * linked file is kept only when it resolves inside `home` (default: `dir`). Never throws: a missing
 * `dir` is an empty listing, anything unreadable is counted.
 */
export function listSessionFiles(dir: string, home = dir): SessionFileListing {
  const out: SessionFileListing = { files: [], skipped: 0, notRegular: 0, errors: [] };
  const add = (full: string, e: fs.Dirent): void => {
    if (!e.isSymbolicLink() || resolvesInside(full, [home])) return addFile(full, out);
    out.skipped++;
    out.errors.push(outsideMessage(full));
  };
  const top = readDir(dir, out, true);
  for (const e of top) {
    const full = path.join(dir, e.name);
    if (e.name.endsWith('.jsonl')) { add(full, e); continue; }
    if (!e.isDirectory()) continue;
    for (const inner of readDir(full, out, false)) {
      if (inner.name.endsWith('.jsonl') && !inner.name.startsWith('.')) add(path.join(full, inner.name), inner);
    }
  }
  return out;
}

function readDir(dir: string, out: SessionFileListing, missingOk: boolean): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!(missingOk && code === 'ENOENT')) out.errors.push(`${dir}: ${code ?? String(e)}`);
    return [];
  }
}

function addFile(full: string, out: SessionFileListing): void {
  if (path.basename(full).startsWith('.')) return;
  try {
    const st = statRegularFile(full);
    out.files.push({ path: full, size: st.size, mtimeMs: st.mtimeMs, nameId: idFromFileName(path.basename(full)) });
  } catch (e) {
    out.skipped++;
    if (isNotRegularFile(e)) {
      out.notRegular++;
      out.errors.push(e.message);
    }
  }
}
