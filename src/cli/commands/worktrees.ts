/**
 * `muster worktrees [--json]`: the git worktrees Muster created for new sessions (it never removes one),
 * each with its sessions and whether it has uncommitted changes. The envelope { ok, worktrees }; on a
 * terminal without --json, a short table on stdout instead.
 */
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';
import type { WorktreeView } from '../../worktrees/index.ts';

export async function run({ args, flags, env, tty }: CommandContext): Promise<number> {
  if (args.length > 0) throw usageError('muster worktrees takes no arguments');
  const body = await callApi(clientContext(env), 'GET', '/worktrees');
  const worktrees = (body.worktrees ?? []) as WorktreeView[];
  if (!tty || flags.json === true) {
    printOk({ worktrees });
    return 0;
  }
  if (worktrees.length === 0) process.stdout.write('no worktrees yet: `muster new <harness> --worktree BRANCH` makes one\n');
  for (const w of worktrees) {
    const state = !w.exists ? 'gone' : w.dirty === null ? 'unknown' : w.dirty ? 'uncommitted changes' : 'clean';
    const sessions = w.sessions.map((s) => `${s.harness} ${s.id.slice(0, 8)}${s.live ? ` (${s.status})` : ''}`).join(', ') || 'no sessions';
    process.stdout.write(`${w.branch}\t${state}\t${w.path}\t${sessions}\n`);
  }
  return 0;
}
