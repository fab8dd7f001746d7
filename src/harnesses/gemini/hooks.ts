/**
 * Gemini CLI's hook events (command hooks, stdin JSON, Claude-like; Muster's extension registers
 * them) → status, and `AfterAgent` as the goal driver's turn end: a `{ decision: 'block', reason }`
 * answer sends the reason as the next prompt in the same process (0.61.0, `-p` and interactive,
 * observed). There is no "permission answered" event: waiting lasts until the tool's AfterTool.
 */
import type { HookEvents, Transition } from '../adapter.ts';
import { ended, idle, SESSION_ID_KEYS, sessionIdAt, str, waiting, working } from '../hook-kit.ts';

/** Events whose hooks move the status; the extension registers exactly these. */
export const GEMINI_HOOK_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'Notification', 'AfterTool', 'AfterAgent', 'SessionEnd'] as const;

/** Gemini's hook events that take a tool-name matcher (a regular expression) instead of none. */
export const GEMINI_TOOL_EVENTS: readonly string[] = ['BeforeTool', 'AfterTool'];

/**
 * "permission: <what>" from a ToolPermission notification's details (0.61.0 sends the confirmation's
 * type with its own fields: exec `command`, edit `fileName`, mcp `serverName`/`toolName`).
 */
function permissionReason(p: Record<string, unknown>): string {
  const d = p.details && typeof p.details === 'object' && !Array.isArray(p.details) ? (p.details as Record<string, unknown>) : {};
  const mcp = str(d.serverName) && str(d.toolName) ? `${str(d.serverName)}/${str(d.toolName)}` : null;
  const edit = str(d.fileName) ? `edit ${str(d.fileName)}` : null;
  const what = str(d.command) ?? mcp ?? edit ?? str(d.title) ?? str(p.message);
  return what ? `permission: ${what}` : 'permission prompt';
}

function transition(event: string, p: Record<string, unknown>): Transition | null {
  switch (event) {
    case 'SessionStart':
    case 'AfterAgent':
      return idle;
    case 'BeforeAgent':
    case 'BeforeTool':
    case 'AfterTool':
      return working;
    case 'Notification':
      // The only type 0.61.0 sends: a tool waits for the person's approval.
      return str(p.notification_type) === 'ToolPermission' ? waiting(permissionReason(p)) : null;
    case 'SessionEnd':
      return ended;
    default:
      return null;
  }
}

/**
 * The process a hook reports for: Gemini runs a command hook as `bash -c '<command>'`, and bash
 * execs a single command, so the hook's parent is the gemini worker (observed). The last copy of
 * SessionEnd can arrive after the worker is gone, reparented to pid 1: that names no process.
 */
export function geminiProcessOf(_env: NodeJS.ProcessEnv, parentPid: number): number | null {
  return Number.isSafeInteger(parentPid) && parentPid > 1 ? parentPid : null;
}

export const geminiHooks: HookEvents = {
  transition,
  sessionIdOf: (p) => sessionIdAt(p, SESSION_ID_KEYS),
  processOf: geminiProcessOf,
  // Gemini bounds a prompt's turns (100, continuations included) but not blocks as such.
  // Only the installed extension reports it (the wrapper requires that install, and injects nothing itself).
  turnEnd: { event: 'AfterAgent', viaWrapper: false, defaultBlockCap: 0, reportKey: 'prompt_response' },
};
