/**
 * Hook payload → exact status transition, per harness (harnesses/*.md "Status from hooks").
 * Pure and tolerant: an unknown event or a payload of the wrong shape gives `null` (no transition),
 * never an exception, because hook payloads come from other programs and change between versions.
 */
import { HARNESSES, type Harness } from '../core/session.ts';

/** The statuses a hook can assert. `ended` means the process is leaving; the files decide afterwards. */
export type HookStatus = 'working' | 'waiting' | 'idle' | 'ended';

export interface Transition {
  status: HookStatus;
  /** Why the session waits (tool name, notification text); null unless waiting. */
  waitingFor: string | null;
}

type Payload = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v.slice(0, 300) : null);
const working: Transition = { status: 'working', waitingFor: null };
const idle: Transition = { status: 'idle', waitingFor: null };
const ended: Transition = { status: 'ended', waitingFor: null };
const waiting = (why: string | null): Transition => ({ status: 'waiting', waitingFor: why ?? 'input' });

function permissionReason(p: Payload): string {
  const tool = str(p.tool_name);
  return tool ? `permission: ${tool}` : 'permission prompt';
}

/** Claude Code hook events (settings.json `hooks`), stdin JSON. */
function claude(event: string, p: Payload): Transition | null {
  switch (event) {
    case 'SessionStart':
    case 'Stop':
    case 'StopFailure':
      return idle;
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
    case 'PermissionDenied':
    case 'ElicitationResult':
      return working;
    case 'PermissionRequest':
      return waiting(permissionReason(p));
    case 'Elicitation':
      return waiting(str(p.message) ?? 'elicitation');
    case 'Notification': {
      const type = str(p.notification_type);
      // idle_prompt fires 60 s after Stop: still idle, not waiting (claude-code.md §8).
      if (type === 'idle_prompt') return idle;
      if (type === 'permission_prompt') return waiting(str(p.message) ?? 'permission prompt');
      return null;
    }
    case 'SessionEnd':
      return ended;
    default:
      return null;
  }
}

/** Codex hooks (hooks.json, Claude shape, stdin JSON) plus `notify` (one argv JSON argument). */
function codex(event: string, p: Payload): Transition | null {
  switch (event) {
    case 'SessionStart':
    case 'Stop':
    case 'Interrupt':
      return idle;
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
      return working;
    case 'PermissionRequest':
      return waiting(permissionReason(p));
    case 'SessionEnd':
      return ended;
    case 'notify':
      return p.type === 'agent-turn-complete' ? idle : null;
    default:
      return null;
  }
}

/** OpenCode plugin: bus event types forwarded by Muster's plugin (opencode.md §6–7). */
function opencode(event: string, p: Payload): Transition | null {
  switch (event) {
    case 'session.status': {
      const type = str((p.status as Payload | undefined)?.type);
      if (type === 'busy' || type === 'retry') return working;
      return type === 'idle' ? idle : null;
    }
    case 'session.idle':
      return idle;
    case 'permission.asked':
      return waiting(str(p.permission) ? `permission: ${str(p.permission)}` : 'permission prompt');
    case 'question.asked':
      return waiting('question');
    case 'permission.replied':
      return working;
    case 'exit':
      return ended;
    default:
      return null;
  }
}

/** pi and omp: extension events forwarded by Muster's extension (pi-and-omp.md A6). */
function piFamily(event: string): Transition | null {
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

export function transitionFor(harness: Harness, event: string, payload: Payload): Transition | null {
  switch (harness) {
    case 'claude':
      return claude(event, payload);
    case 'codex':
      return codex(event, payload);
    case 'opencode':
      return opencode(event, payload);
    case 'pi':
    case 'omp':
      return piFamily(event);
  }
}

export function isHarness(v: unknown): v is Harness {
  return typeof v === 'string' && (HARNESSES as readonly string[]).includes(v);
}

/** Event names: letters, digits, `_`, `.`, `-`; bounded. */
export function isEventName(v: unknown): v is string {
  return typeof v === 'string' && /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(v);
}

/** The harness's session id inside a payload (each names it differently). */
export function sessionIdOf(harness: Harness, payload: Payload): string | null {
  if (harness === 'codex' && typeof payload['thread-id'] === 'string') return payload['thread-id'];
  for (const k of ['session_id', 'sessionID', 'sessionId']) {
    const v = payload[k];
    if (typeof v === 'string') return v;
  }
  return null;
}
