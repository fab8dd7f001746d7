/**
 * Where Claude transcripts are: `projects/<slug>/<uuid>.jsonl`. A project folder or a transcript that
 * is a symbolic link is followed only when it resolves inside the Claude home: a link to /etc/passwd
 * dropped in a project folder is not a transcript (it is skipped and counted).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isUuid } from '../../../core/ids.ts';
import { outsideMessage, resolvesInside } from '../../../discovery/regular-file/index.ts';

export interface TranscriptFile {
  file: string;
  /** Session id from the file name (what `--resume` takes). */
  id: string;
}

/** What listing counts: links not followed (and unreadable folders, as errors). */
export interface ListingCounters {
  filesSkipped: number;
  errors: string[];
}

const JSONL = /^(.+)\.jsonl$/;

/** Every transcript file under `projectsDir`; `home` bounds where links may lead. */
export function listTranscriptFiles(projectsDir: string, home: string, counters: ListingCounters): TranscriptFile[] {
  return projectDirs(projectsDir, home, counters).flatMap((slugDir) => transcriptFilesIn(slugDir, home, counters));
}

/** The transcript files of one project folder. */
export function transcriptFilesIn(slugDir: string, home: string, counters: ListingCounters): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  // The folder is a normalized path (every caller's is path.join's or path.dirname's) and the name a
  // uuid's: what path.join would give, without normalizing it again for each of thousands of files.
  const prefix = slugDir.endsWith(path.sep) ? slugDir : slugDir + path.sep;
  for (const ent of dirents(slugDir, counters)) {
    const id = JSONL.exec(ent.name)?.[1];
    if (!id || !isUuid(id)) continue;
    const file = prefix + ent.name;
    if (ent.isSymbolicLink() && !followed(file, home, counters)) continue;
    out.push({ file, id });
  }
  return out;
}

/** The transcript files named for session `id` (normally one), links checked as listing does. */
export function transcriptFilesOf(projectsDir: string, home: string, id: string, counters: ListingCounters): string[] {
  const out: string[] = [];
  for (const slugDir of projectDirs(projectsDir, home, counters)) {
    const file = path.join(slugDir, `${id}.jsonl`);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(file);
    } catch {
      continue; // not in this project folder
    }
    if (st.isSymbolicLink() && !followed(file, home, counters)) continue;
    out.push(file);
  }
  return out;
}

/** Project folders, a linked one only when it stays inside the home. */
function projectDirs(projectsDir: string, home: string, counters: ListingCounters): string[] {
  const out: string[] = [];
  for (const ent of dirents(projectsDir, counters)) {
    const dir = path.join(projectsDir, ent.name);
    if (ent.isDirectory()) out.push(dir);
    else if (ent.isSymbolicLink() && isDirectory(dir) && followed(dir, home, counters)) out.push(dir);
  }
  return out;
}

function followed(p: string, home: string, counters: ListingCounters): boolean {
  if (resolvesInside(p, [home])) return true;
  counters.filesSkipped++;
  counters.errors.push(outsideMessage(p));
  return false;
}

function dirents(dir: string, counters: ListingCounters): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A home without projects/ yet is normal; anything else is worth reporting.
    if (code !== 'ENOENT') counters.errors.push(`${dir}: ${code ?? 'readdir failed'}`);
    return [];
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
