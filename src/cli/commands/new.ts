/**
 * `muster new <harness> [--cwd DIR] [--worktree BRANCH] [--name NAME] [--prompt TEXT]
 *   [--goal TEXT [--budget TOKENS] [--max-turns N] [--auditor SPEC]] [--focus] [--wait SECONDS] [--json]`:
 * a new session of the harness, opened by the daemon through the wrapper in a new tmux/herdr pane, in DIR
 * (default: here) or a new git worktree of its repository for BRANCH. Prints the daemon's answer as the
 * envelope: the launch id at once, the session id when the harness takes one up front or it arrived
 * within --wait seconds. On a terminal (without --json) a sentence on stderr says what happened too.
 */
import path from 'node:path';
import { HARNESSES, isHarness } from '../../harnesses/registry.ts';
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';

/** The longest --wait: the client's own request bound is 30 s. */
export const MAX_CLI_WAIT_S = 20;

const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

function waitOf(v: string | undefined): number {
  if (v === undefined) return 0;
  const n = /^\d{1,3}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 0 && n <= MAX_CLI_WAIT_S)) throw usageError(`--wait takes whole seconds from 0 to ${MAX_CLI_WAIT_S}`);
  return n;
}

export async function run({ args, flags, env, tty }: CommandContext): Promise<number> {
  const [harness, ...extra] = args;
  if (!harness || extra.length > 0) throw usageError(`muster new <${HARNESSES.join('|')}> [--cwd DIR] [--worktree BRANCH] [--name NAME] [--prompt TEXT] [--goal TEXT] …`);
  if (!isHarness(harness)) throw usageError(`unknown harness '${harness}' (known: ${HARNESSES.join(', ')})`);
  const goal = str(flags.goal);
  for (const k of ['budget', 'max-turns', 'auditor'] as const) {
    if (flags[k] !== undefined && goal === undefined) throw usageError(`--${k} goes with --goal`);
  }
  const body: Record<string, unknown> = {
    harness,
    cwd: path.resolve(str(flags.cwd) ?? process.cwd()),
    worktree: str(flags.worktree),
    name: str(flags.name),
    prompt: str(flags.prompt),
    goal: goal === undefined ? undefined : { objective: goal, tokenBudget: str(flags.budget), maxTurns: str(flags['max-turns']), auditor: str(flags.auditor) },
    focus: flags.focus === true,
    waitSeconds: waitOf(str(flags.wait)),
  };
  const { ok: _ok, ...answer } = await callApi(clientContext(env), 'POST', '/sessions/new', body);
  if (tty && flags.json !== true) process.stderr.write(`${sentence(answer)}\n`);
  printOk(answer);
  return 0;
}

function sentence(a: Record<string, unknown>): string {
  const pane = (a.pane as { id?: string } | undefined)?.id ?? '?';
  const wt = a.worktree as { branch?: string } | null;
  const id = typeof a.sessionId === 'string' ? `session ${a.sessionId}` : `launch ${String(a.launchId)} (its session id follows from its first hook event)`;
  const where = `${String(a.cwd)}${wt?.branch ? ` (new worktree on branch ${wt.branch})` : ''}`;
  const goal = a.goalPending ? '; the goal is set once the session reports its id' : a.goal ? '; goal set' : '';
  return `started ${String(a.harness)} in ${String(a.manager)} pane ${pane}, in ${where}: ${id}${goal}`;
}
