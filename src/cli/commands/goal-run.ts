/**
 * `muster goal run <harness> [--cwd DIR] [--budget TOKENS] [--max-turns N] [--auditor SPEC] [--json] "<objective>"`
 * starts a new session in the harness's headless mode and drives it until the goal settles: each
 * finished turn goes to the daemon's driver (POST /api/goals/turn) and its decision is obeyed.
 * Progress: one line per turn on stderr, or JSON events on stdout with --json; then one envelope
 * `{ ok: true, goal, outcome }`. Exit code per outcome (GOAL_EXIT).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { MusterError } from '../../errors/index.ts';
import { type Harness } from '../../core/session.ts';
import { adapterFor, HARNESSES } from '../../harnesses/registry.ts';
import type { TurnOutput } from '../../harnesses/adapter.ts';
import { answerBody, clientContext, ensureDaemon } from '../daemon-client.ts';
import { httpJson } from '../http.ts';
import { GOAL_RUN_ENV } from '../../hooks/stop-wait.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';

/** Exit codes: 0 complete; one distinct code per other way a goal ends. */
export const GOAL_EXIT: Record<string, number> = { complete: 0, blocked: 3, audit_failed: 4, budget_exhausted: 5, max_turns: 6, paused: 7, active: 8, cleared: 9 };

const flag = (ctx: CommandContext, name: string): string | undefined => {
  const v = ctx.flags[name];
  if (v === true) throw usageError(`--${name} needs a value`);
  return typeof v === 'string' ? v : undefined;
};

interface Proc { code: number | null; stdout: string; stderr: string }

/** One harness turn as a child process in its own group; the group is ended on timeout or our exit. */
function runTurn(argv: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGTERM');
      } catch {}
    };
    const timer = setTimeout(kill, timeoutMs);
    process.once('exit', kill);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new MusterError('harness_failed', `cannot start ${argv[0]}: ${e.message}; is it installed and on PATH?`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      process.removeListener('exit', kill);
      resolve({ code, stdout, stderr });
    });
  });
}

export async function run(ctx: CommandContext): Promise<number> {
  const [harnessArg, ...words] = ctx.args;
  if (!harnessArg || !(HARNESSES as readonly string[]).includes(harnessArg) || words.length === 0) {
    throw usageError(`muster goal run <${HARNESSES.join('|')}> [--cwd DIR] [--budget TOKENS] [--max-turns N] [--auditor SPEC] [--json] "<objective>"`);
  }
  const harness = harnessArg as Harness;
  const objective = words.join(' ').trim();
  if (!objective) throw new MusterError('invalid_argument', 'the objective is empty; say what "done" means');
  const cwd = path.resolve(flag(ctx, 'cwd') ?? process.cwd());
  const json = ctx.flags.json === true;
  const turnTimeoutMs = Number(flag(ctx, 'turn-timeout') ?? 1800) * 1000;
  const headless = adapterFor(harness).headless;
  const client = clientContext(ctx.env);
  const loc = await ensureDaemon(client);
  const api = async (method: string, p: string, body?: unknown): Promise<Record<string, unknown>> => {
    // Generous bound: a turn report waits for the audit (auditTimeoutSeconds).
    const r = await httpJson(`${loc.urls.api}${p}`, { method, token: loc.token, body, timeoutMs: 3_600_000 });
    return answerBody(r);
  };
  const emit = (event: Record<string, unknown>, line: string) => {
    if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
    else process.stderr.write(`${line}\n`);
  };

  let sessionId: string | null = null;
  let prompt = objective;
  for (let turn = 1; ; turn++) {
    // Claude takes a pre-assigned id for a new session; the others name theirs in their output.
    const command = headless.command(sessionId === null ? { prompt, newId: randomUUID() } : { sessionId, prompt });
    const started = Date.now();
    const proc = await runTurn(command.argv, cwd, { ...ctx.env, [GOAL_RUN_ENV]: '1' }, turnTimeoutMs);
    const parsed = headless.parse(proc.stdout);
    // Copilot prints no token counts: its adapter reads them from the session's own files.
    const out: TurnOutput = headless.finish ? headless.finish({ command, output: parsed, env: ctx.env, audit: false }) : parsed;
    sessionId ??= out.sessionId;
    if (!sessionId) throw new MusterError('harness_failed', `${harness} exited ${proc.code} without a session: ${(out.error ?? proc.stderr).slice(0, 400)}`);
    if (turn === 1) {
      const set = await api('POST', '/goals', { sessionId, harness, objective, tokenBudget: flag(ctx, 'budget'), maxTurns: flag(ctx, 'max-turns'), auditor: flag(ctx, 'auditor'), drivenBy: 'caller' });
      emit({ type: 'goal.started', goal: set.goal }, `goal ${(set.goal as { id: string }).id} on ${harness} session ${sessionId}`);
    }
    const failed = proc.code !== 0 && out.text === null;
    const d = await api('POST', '/goals/turn', { sessionId, harness, lastAssistantText: out.text, tokens: out.tokens, model: out.model, cwd, outcome: failed ? 'failed' : 'completed' });
    const ms = Date.now() - started;
    emit({ type: 'goal.turn', turn, sessionId, tokens: out.tokens, ms, decision: d.decision, reason: d.reason ?? null },
      `turn ${turn}: ${out.tokens} tokens, ${ms} ms → ${d.decision}${d.reason ? ` (${String(d.reason)})` : ''}`);
    if (failed) throw new MusterError('harness_failed', `${harness} turn ${turn} failed (exit ${proc.code}): ${(out.error ?? proc.stderr).slice(0, 400)}`);
    if (d.decision === 'continue') {
      prompt = String(d.prompt);
      continue;
    }
    const goal = (await api('GET', `/goals/${sessionId}`).catch(() => ({ goal: null }))).goal as { status?: string } | null;
    const outcome = goal?.status ?? 'cleared';
    printOk({ goal, outcome, turns: turn });
    return Object.hasOwn(GOAL_EXIT, outcome) ? (GOAL_EXIT[outcome] ?? 1) : 1;
  }
}
