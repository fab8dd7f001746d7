/**
 * Installing into other programs' config files, safely: the original bytes are backed up under
 * MUSTER_HOME/hooks/ before the first change; install is idempotent (a second run finds its entries
 * and changes nothing); uninstall restores the original bytes exactly when the file is still what
 * install wrote, and otherwise removes only Muster's entries. A file that did not exist goes again
 * with the directories install created for it. A file that does not parse is reported and left
 * untouched.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MusterError } from '../../errors/index.ts';

/** One config file Muster edits (or owns). Functions are pure; they throw MalformedConfig. */
export interface FileEdit {
  path: string;
  /** The content with Muster's entries added (idempotent: unchanged when already there). */
  add(current: string | null): string;
  /** The content without Muster's entries; null deletes the file. */
  remove(current: string): string | null;
  has(current: string | null): boolean;
}

export class MalformedConfig extends Error {}

export interface EditResult {
  path: string;
  action: 'installed' | 'already-installed' | 'restored' | 'removed-entries' | 'not-installed' | 'malformed';
  message?: string;
}

interface ManifestEntry {
  existed: boolean;
  /** Where the original bytes are kept. */
  backup: string | null;
  /** sha256 of what install wrote. */
  installed: string;
  /** Directories install created for the file, deepest first: removed again with it when empty. */
  dirs?: string[];
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new MusterError('invalid_argument', `cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The directories above `path` that do not exist yet, deepest first. */
function missingDirs(path: string): string[] {
  const out: string[] = [];
  for (let d = dirname(path); !existsSync(d) && dirname(d) !== d; d = dirname(d)) out.push(d);
  return out;
}

/** Removes the directories install created, deepest first, as long as each is empty. */
function removeEmptyDirs(dirs: readonly string[]): void {
  for (const d of dirs) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty (the person put something there) or already gone: leave it and those above
    }
  }
}

/** Write to a temp file and rename, so a crash never leaves a half-written config. */
function writeAtomic(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.muster-tmp-${process.pid}`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, path);
}

export function createInstaller(stateDir: string) {
  const manifestPath = join(stateDir, 'manifest.json');
  const loadManifest = (): Record<string, ManifestEntry> => {
    try {
      return JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestEntry>;
    } catch {
      return {};
    }
  };
  const saveManifest = (m: Record<string, ManifestEntry>) => {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    writeFileSync(manifestPath, `${JSON.stringify(m, null, 2)}\n`, { mode: 0o600 });
  };

  return {
    install(edit: FileEdit): EditResult {
      const current = read(edit.path);
      let next: string;
      try {
        if (edit.has(current)) return { path: edit.path, action: 'already-installed' };
        next = edit.add(current);
      } catch (e) {
        if (e instanceof MalformedConfig) return { path: edit.path, action: 'malformed', message: e.message };
        throw e;
      }
      const manifest = loadManifest();
      if (!manifest[edit.path]) {
        let backup: string | null = null;
        if (current !== null) {
          backup = join(stateDir, 'backups', `${sha(edit.path).slice(0, 16)}.orig`);
          mkdirSync(dirname(backup), { recursive: true, mode: 0o700 });
          writeFileSync(backup, current, { mode: 0o600 });
        }
        const dirs = current === null ? missingDirs(edit.path) : [];
        manifest[edit.path] = { existed: current !== null, backup, installed: '', ...(dirs.length > 0 ? { dirs } : {}) };
      }
      writeAtomic(edit.path, next);
      (manifest[edit.path] as ManifestEntry).installed = sha(next);
      saveManifest(manifest);
      return { path: edit.path, action: 'installed' };
    },

    uninstall(edit: FileEdit): EditResult {
      const current = read(edit.path);
      const manifest = loadManifest();
      const entry = manifest[edit.path];
      const forget = () => {
        if (entry?.backup) rmSync(entry.backup, { force: true });
        delete manifest[edit.path];
        saveManifest(manifest);
      };
      if (current !== null && entry && sha(current) === entry.installed) {
        // Untouched since install: put the original bytes back exactly.
        if (entry.existed && entry.backup && existsSync(entry.backup)) writeAtomic(edit.path, readFileSync(entry.backup, 'utf8'));
        else if (!entry.existed) {
          rmSync(edit.path, { force: true });
          removeEmptyDirs(entry.dirs ?? []);
        }
        forget();
        return { path: edit.path, action: 'restored' };
      }
      try {
        if (current === null || !edit.has(current)) {
          if (entry) forget();
          return { path: edit.path, action: 'not-installed' };
        }
        const next = edit.remove(current);
        if (next === null) rmSync(edit.path, { force: true });
        else writeAtomic(edit.path, next);
      } catch (e) {
        if (e instanceof MalformedConfig) return { path: edit.path, action: 'malformed', message: e.message };
        throw e;
      }
      if (entry) forget();
      return { path: edit.path, action: 'removed-entries' };
    },

    /** Whether Muster's entries are present; `malformed` when the file does not parse. */
    status(edit: FileEdit): 'installed' | 'not-installed' | 'malformed' {
      try {
        return edit.has(read(edit.path)) ? 'installed' : 'not-installed';
      } catch (e) {
        if (e instanceof MalformedConfig) return 'malformed';
        throw e;
      }
    },
  };
}

export type Installer = ReturnType<typeof createInstaller>;
