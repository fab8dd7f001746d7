/**
 * A cached GitInfo lookup: sources ask per session on every list(), and many sessions share a
 * cwd; a short TTL keeps a branch switch visible within seconds without re-reading per call.
 */
import { readGitInfo, realGitFs } from './git-info.ts';
import type { GitFsOperations, GitInfo } from './git-info.ts';

export interface GitReaderOptions {
  /** How long an answer for one cwd is reused, in ms. Default: 2000. 0 disables caching. */
  ttlMs?: number;
  /** Most cwds remembered; the oldest is dropped beyond it. Default: 1000. */
  maxEntries?: number;
  /** Default: the real file system. */
  fs?: GitFsOperations;
  /** Clock in ms. Default: Date.now. */
  now?: () => number;
}

export interface GitReader {
  read(cwd: string): GitInfo;
  /** Forget every cached answer (e.g. after a watcher saw HEAD change). */
  clear(): void;
}

export function createGitReader(options: GitReaderOptions = {}): GitReader {
  const ttlMs = options.ttlMs ?? 2000;
  const maxEntries = Math.max(1, options.maxEntries ?? 1000);
  const fsOps = options.fs ?? realGitFs;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { info: GitInfo; at: number }>();

  return {
    read(cwd) {
      const t = now();
      const hit = cache.get(cwd);
      if (hit && t - hit.at < ttlMs) return { ...hit.info };
      const info = readGitInfo(cwd, fsOps);
      cache.delete(cwd); // re-insert so Map order stays oldest-first
      cache.set(cwd, { info, at: t });
      if (cache.size > maxEntries) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      return { ...info };
    },
    clear: () => cache.clear(),
  };
}
