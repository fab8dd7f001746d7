/**
 * What pi and omp share beyond discovery (omp is a pi derivative with the same extension API, print
 * mode and session format): the wrapper's plan, the extension's events, the headless commands.
 * Each adapter passes its own name, command and differences.
 *
 * The wrapper loads the Muster extension through `-e` (status and the four pager tools; loads in
 * pi 0.73.1 and omp 18.2.3, observed). pi has no MCP; omp's MCP lives only in config files
 * (~/.omp/agent/mcp.json, <cwd>/.omp/mcp.json) that the wrapper must not edit, so both reach Muster
 * over REST from the extension.
 */
import { join } from 'node:path';
import type { Headless, HookEvents, StartArgs, StartRequest, Transition, TurnOutput } from '../adapter.ts';
import { ended, idle, SESSION_ID_KEYS, sessionIdAt, working } from '../hook-kit.ts';
import { jsonLines, num, type Json } from '../json-lines.ts';
import { baseEnv, type LaunchContext, type LaunchPlan } from '../../launch/plan-types.ts';
import type { StatusAssetName } from '../../hooks/install/target.ts';

export interface FamilyMember {
  bin: 'pi' | 'omp';
  asset: StatusAssetName;
  /** The flag that continues a session by id (`--session` in pi, `--resume` in omp). */
  resumeFlag: string;
  /** Why the extension, and not MCP, reaches Muster (a note the wrapper prints under MUSTER_DEBUG). */
  mcpNote: string;
}

export function planFamily(m: FamilyMember, ctx: LaunchContext): LaunchPlan {
  const ext = join(ctx.launchDir, 'muster-status.ts');
  return {
    bin: m.bin,
    argv: ['-e', ext, ...ctx.args],
    env: baseEnv(ctx),
    files: [{ path: ext, content: ctx.asset(m.asset), mode: 0o600 }],
    sessionId: null,
    notes: [m.mcpNote],
  };
}

function transition(event: string): Transition | null {
  switch (event) {
    case 'session_start':
    case 'agent_end':
      return idle;
    case 'agent_start':
    case 'turn_start':
    case 'tool_call':
      return working;
    case 'session_shutdown':
      return ended;
    default:
      return null;
  }
}

/**
 * The extension's events (it forwards pi's own event names). `agent_end` is the turn end: the
 * extension reports it with the final text, waits for a goal's decision and queues the continuation
 * with `sendUserMessage` (interactive and RPC sessions; print mode cannot take another turn).
 */
export const familyHooks: HookEvents = {
  transition: (event) => transition(event),
  sessionIdOf: (p) => sessionIdAt(p, SESSION_ID_KEYS),
  turnEnd: { event: 'agent_end', viaWrapper: true, defaultBlockCap: 0 },
};

/** pi refuses `--` ("Unknown option"); a leading space keeps a prompt that starts with '-' from reading as a flag. */
const safePrompt = (p: string) => (p.startsWith('-') ? ` ${p}` : p);

/**
 * `muster new`: the prompt as the one positional message (pi 0.73.1, omp 18.2.3). A leading space keeps
 * one starting with `-` from reading as a flag and one starting with `@` from reading as a file to
 * attach; a subcommand's name is read as one only in first place, where the wrapper's `-e` stands.
 * Neither CLI takes an id for a new session: it comes from the extension's first event.
 */
export function familyStartArgs(req: StartRequest): StartArgs {
  if (req.prompt === null) return { args: [], sessionId: null };
  return { args: [/^[-@]/.test(req.prompt) ? ` ${req.prompt}` : req.prompt], sessionId: null };
}

/** `--mode json`: the session header names the id; assistant message_end events carry text and usage. */
function parse(bin: string, stdout: string): TurnOutput {
  let sessionId: string | null = null;
  let text: string | null = null;
  let tokens = 0;
  let model: string | null = null;
  for (const e of jsonLines(stdout)) {
    if (e.type === 'session' && typeof e.id === 'string') sessionId = e.id;
    const m = (e.message ?? {}) as Json;
    if (e.type !== 'message_end' || m.role !== 'assistant') continue;
    const u = (m.usage ?? {}) as Json;
    tokens += num(u.totalTokens) || num(u.input) + num(u.output) + num(u.cacheRead) + num(u.cacheWrite);
    if (typeof m.model === 'string') model = m.model;
    const parts = Array.isArray(m.content) ? (m.content as Json[]) : [];
    const t = parts.filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text as string).join('').trim();
    // A message that only calls tools resets the report: tool output is never the report.
    text = t || null;
  }
  return { sessionId, text, tokens, model, error: sessionId ? null : `${bin} printed no session header` };
}

export function familyHeadless(m: FamilyMember): Headless {
  return {
    // The auditor: no session saved, no tools, no extensions (Muster's own would report the run), its own system prompt.
    audit(req) {
      const model = req.model ? ['--model', req.model] : [];
      return { argv: [m.bin, '-p', '--mode', 'json', '--no-session', '--no-tools', '--no-extensions', '--system-prompt', req.system, ...model, safePrompt(req.prompt)] };
    },
    command(req) {
      const at = req.sessionId ? [m.resumeFlag, req.sessionId] : [];
      const model = req.model ? ['--model', req.model] : [];
      return { argv: [m.bin, '-p', '--mode', 'json', ...at, ...model, safePrompt(req.prompt)] };
    },
    parse: (stdout) => parse(m.bin, stdout),
  };
}
