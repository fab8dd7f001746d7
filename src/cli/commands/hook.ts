/**
 * `muster hook <harness> <event> [json]`: the entry point harness hooks call. Reads the payload
 * (stdin for command hooks; the last argv argument for Codex `notify`), posts it to the daemon and
 * exits 0 within the bound whatever happens (fail open; never starts a daemon).
 * Its stdout belongs to the harness's hook protocol, so unlike other commands it prints no envelope:
 * only a decision, when the daemon answers the harness's turn-end event (its adapter's
 * `hooks.turnEnd`, e.g. Claude's Stop) with one (the goal driver's seam): `{"decision":"block","reason":"…"}`.
 * A turn end of a session with an active goal is answered at once with a ticket; the hook then waits
 * for the audit's decision in a second request, up to the ticket's waitMs and never past
 * STOP_WAIT_MAX_MS (below the turn-end entry's own timeout).
 */
import type { CommandContext } from '../command.ts';
import { findDaemon, postJson, readStdin, trimPayload } from '../../hooks/post-event.ts';
import { GOAL_RUN_ENV, STOP_WAIT_MAX_MS } from '../../hooks/stop-wait.ts';
import { adapterFor, isHarness } from '../../harnesses/registry.ts';

/** Total budget for the post (connect + answer), ms. Default 250; MUSTER_HOOK_TIMEOUT_MS overrides. */
const DEFAULT_DEADLINE_MS = 250;

/** The final report the auditor judges: kept whole up to this many characters (other strings are trimmed to 500); 50k keeps the post under the route's 256 KiB limit. */
const REPORT_MAX = 50_000;

function parsePayload(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function run({ args, env }: CommandContext): Promise<number> {
  const [harness, event, argJson] = args;
  if (!harness || !event) {
    process.stderr.write('usage: muster hook <harness> <event> [payload-json]\n');
    return 0; // still exit 0: a misconfigured hook must not break the agent
  }
  const deadline = Number(env.MUSTER_HOOK_TIMEOUT_MS) > 0 ? Number(env.MUSTER_HOOK_TIMEOUT_MS) : DEFAULT_DEADLINE_MS;
  const started = Date.now();
  const target = findDaemon(env);
  // No daemon recorded: leave at once without reading stdin (Claude 2.1.332 still reports the hook a success).
  if (!target) return 0;
  const text = argJson ?? (await readStdin(Math.min(200, deadline)));
  const hooks = isHarness(harness) ? adapterFor(harness).hooks : undefined;
  const pid = hooks?.processOf?.(env, process.ppid) ?? null;
  const raw = parsePayload(text);
  const payload = trimPayload(raw);
  const turnEnd = hooks?.turnEnd;
  // A turn of `muster goal run` is driven by goal run itself: its turn end reports, never decides.
  const driven = env[GOAL_RUN_ENV] === '1';
  const isTurnEnd = turnEnd !== undefined && event === turnEnd.event && !driven;
  if (driven) payload.muster_goal_run = true;
  if (isTurnEnd) {
    const report = raw[turnEnd.reportKey ?? 'last_assistant_message'];
    if (typeof report === 'string') payload.last_assistant_message = report.slice(0, REPORT_MAX);
    // The harness overrides blocks past this cap; the daemon hands such a continuation off instead.
    if (turnEnd.blockCapFrom) payload.muster_block_cap = turnEnd.blockCapFrom(env);
    // The harness runs this hook as its turn ends: a goal set after that is not this turn's (hook-decision.ts).
    payload.muster_turn_ended_at = started;
  }
  const body = {
    payload,
    pid: pid !== null && Number.isSafeInteger(pid) && pid > 1 ? pid : null,
    launchId: env.MUSTER_LAUNCH_ID ?? null,
  };
  const path = `/hooks/${encodeURIComponent(harness)}/${encodeURIComponent(event)}`;
  const answer = await postJson(target, path, body, Math.max(20, deadline - (Date.now() - started)));
  let d = answer?.decision as { decision?: unknown; reason?: unknown; pending?: unknown; decisionId?: unknown; waitMs?: unknown } | null | undefined;
  if (d && d.pending === true && typeof d.decisionId === 'string' && isTurnEnd) {
    const waitMs = Math.min(typeof d.waitMs === 'number' && d.waitMs > 0 ? d.waitMs : 0, STOP_WAIT_MAX_MS - (Date.now() - started));
    const wait = { payload: { muster_decision_id: d.decisionId, muster_wait_ms: waitMs }, pid: null, launchId: null };
    // The post's own bound: the daemon answers null at waitMs; a little slack for the answer to travel.
    const later = await postJson(target, path, wait, waitMs + 1000);
    d = later?.decision as typeof d;
    if (!later && env.MUSTER_DEBUG) process.stderr.write('[muster hook] no goal decision in time; the daemon continues the goal another way\n');
  }
  if (d && d.decision === 'block' && typeof d.reason === 'string' && isTurnEnd) {
    process.stdout.write(`${JSON.stringify({ decision: 'block', reason: d.reason })}\n`);
  }
  if (!answer && env.MUSTER_DEBUG) process.stderr.write('[muster hook] daemon unreachable; event dropped\n');
  return 0;
}
