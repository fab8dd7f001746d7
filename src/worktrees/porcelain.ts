/**
 * `git worktree list --porcelain -z`: records separated by an empty field, each field `key value`
 * (`worktree <path>`, `HEAD <sha>`, `branch refs/heads/<name>`, `bare`, `detached`, `locked`…).
 * With -z, paths that hold newlines survive. Unknown keys are ignored.
 */
export interface WorktreeEntry {
  path: string;
  /** The branch checked out there (without `refs/heads/`); null when detached or bare. */
  branch: string | null;
  head: string | null;
  bare: boolean;
}

export function parseWorktreeList(out: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let cur: WorktreeEntry | null = null;
  for (const field of out.split('\0')) {
    if (field === '') {
      if (cur) entries.push(cur);
      cur = null;
      continue;
    }
    const space = field.indexOf(' ');
    const key = space === -1 ? field : field.slice(0, space);
    const value = space === -1 ? '' : field.slice(space + 1);
    if (key === 'worktree') {
      if (cur) entries.push(cur);
      cur = { path: value, branch: null, head: null, bare: false };
    } else if (cur) {
      if (key === 'branch') cur.branch = value.startsWith('refs/heads/') ? value.slice('refs/heads/'.length) : value;
      else if (key === 'HEAD') cur.head = value;
      else if (key === 'bare') cur.bare = true;
    }
  }
  if (cur) entries.push(cur);
  return entries;
}
