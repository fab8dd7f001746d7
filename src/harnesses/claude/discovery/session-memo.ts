/**
 * The sessions that listings built, handed out again while nothing they were built from changed. A
 * safety rescan of a long history otherwise rebuilds thousands of unchanged sessions, and the hub's
 * diff then walks every field of each; a session handed out again is one identity check there.
 *
 * What is compared: the transcript summary by identity (the index hands out the object it holds until
 * the file changes, and readers fold into a copy: transcript-scan.ts), the transcript's mtime and the
 * folder's cwd; by value, the live registry entries, the fork share, and what git says of the
 * session's cwd now (asked again each time: a branch changes with no file of Claude's changing).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Session } from '../../../core/session.ts';
import type { GitInfo } from '../../../discovery/git/index.ts';
import type { SessionParts } from './build-session.ts';

export interface SessionMemo {
  /** The session of `parts`: the one built before when its inputs are unchanged, else built now. */
  build(parts: SessionParts): Session;
  /** Forgets every session not built since the last call (one call after each full listing). */
  sweep(): void;
}

interface Built {
  parts: SessionParts;
  /** The cwd git was asked about and its answer; null when the session has no cwd. */
  git: { cwd: string; info: GitInfo } | null;
  session: Session;
  used: boolean;
}

const sameGit = (a: GitInfo, b: GitInfo): boolean => a.repoRoot === b.repoRoot && a.branch === b.branch;

export function createSessionMemo(buildSession: (parts: SessionParts) => Session): SessionMemo {
  const built = new Map<string, Built>();

  // Cheap checks first: most sessions of a long history are dormant (no entries) and no fork.
  const unchanged = (b: Built, parts: SessionParts): boolean =>
    b.parts.summary === parts.summary &&
    b.parts.transcriptMtimeMs === parts.transcriptMtimeMs &&
    (b.parts.folderCwd ?? null) === (parts.folderCwd ?? null) &&
    ((b.parts.live.length === 0 && parts.live.length === 0) || isDeepStrictEqual(b.parts.live, parts.live)) &&
    ((b.parts.fork ?? null) === (parts.fork ?? null) || isDeepStrictEqual(b.parts.fork, parts.fork)) &&
    (b.git === null || sameGit(b.git.info, parts.git(b.git.cwd)));

  return {
    build(parts) {
      const before = built.get(parts.id);
      if (before && unchanged(before, parts)) {
        before.used = true;
        return before.session;
      }
      let git: Built['git'] = null;
      const session = buildSession({
        ...parts,
        git: (cwd) => {
          const info = parts.git(cwd);
          git = { cwd, info };
          return info;
        },
      });
      built.set(parts.id, { parts, git, session, used: true });
      return session;
    },
    sweep() {
      for (const [id, b] of built) {
        if (b.used) b.used = false;
        else built.delete(id);
      }
    },
  };
}
