/**
 * `muster hook <harness> <event> [json]`: the entry point harness hooks call. Reads the payload
 * (stdin for Claude and Codex hooks; the last argv argument for Codex `notify`), posts it to the
 * daemon and exits 0 within the bound whatever happens (fail open; never starts a daemon).
 * Its stdout belongs to the harness's hook protocol, so unlike other commands it prints no envelope:
 * only a decision, when the daemon answers a Stop with one (the goal driver's seam), in the format
 * Claude and Codex read: `{"decision":"block","reason":"…"}`.
 */
import type { CommandContext } from '../command.ts';
import { findDaemon, postJson, readStdin, trimPayload } from '../../hooks/post-event.ts';

/** Total budget for the post (connect + answer), ms. Default 250; MUSTER_HOOK_TIMEOUT_MS overrides. */
const DEFAULT_DEADLINE_MS = 250;

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
  // No daemon recorded: leave at once, without waiting for stdin (the harness ignores EPIPE on hooks).
  if (!target) return 0;
  const text = argJson ?? (await readStdin(Math.min(200, deadline)));
  const pid = Number(env.CLAUDE_PID);
  const body = {
    payload: trimPayload(parsePayload(text)),
    pid: Number.isSafeInteger(pid) && pid > 0 ? pid : null,
    launchId: env.MUSTER_LAUNCH_ID ?? null,
  };
  const path = `/hooks/${encodeURIComponent(harness)}/${encodeURIComponent(event)}`;
  const answer = await postJson(target, path, body, Math.max(20, deadline - (Date.now() - started)));
  const d = answer?.decision as { decision?: unknown; reason?: unknown } | null | undefined;
  if (d && d.decision === 'block' && typeof d.reason === 'string' && event === 'Stop') {
    process.stdout.write(`${JSON.stringify({ decision: 'block', reason: d.reason })}\n`);
  }
  if (!answer && env.MUSTER_DEBUG) process.stderr.write('[muster hook] daemon unreachable; event dropped\n');
  return 0;
}
