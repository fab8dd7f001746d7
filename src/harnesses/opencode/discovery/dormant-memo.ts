/**
 * The dormant sessions that listings built, handed out again while nothing they were built from
 * changed. Every listing builds each session of the store, so a listing during a cold index (several
 * a second) or a safety rescan of a long history otherwise builds thousands of unchanged sessions
 * again, and the hub's diff then walks every field of each; one handed out again is one identity check
 * there. Only a session no process claims and no server can prompt is kept: it is then a pure function
 * of its summary (compared by identity: the store scanner hands out the object it holds until the
 * session changes) and of what git says of its directory now (asked again each time: a branch changes
 * without OpenCode writing anything).
 */
import type { Session } from '../../../core/session.ts';
import type { GitInfo } from '../../../discovery/git/index.ts';
import type { OpenCodeSessionSummary } from './summary.ts';

export interface DormantMemo {
  /** The session built before from the same summary and git answer, else `build(git)`'s. */
  session(s: OpenCodeSessionSummary, git: GitInfo, build: (git: GitInfo) => Session): Session;
  /** Forgets every session not asked for since the last call (one call after each listing). */
  sweep(): void;
}

export function createDormantMemo(): DormantMemo {
  const built = new Map<string, { summary: OpenCodeSessionSummary; git: GitInfo; session: Session; used: boolean }>();
  return {
    session(s, git, build) {
      const b = built.get(s.id);
      if (b && b.summary === s && b.git.repoRoot === git.repoRoot && b.git.branch === git.branch) {
        b.used = true;
        return b.session;
      }
      const session = build(git);
      built.set(s.id, { summary: s, git, session, used: true });
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
