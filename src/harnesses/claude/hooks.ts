/**
 * Claude Code's hook events (settings.json `hooks`, command hooks, stdin JSON) → status, and the
 * `Stop` hook as the goal driver's turn end: a `{ decision: 'block', reason }` answer continues the
 * session with the reason as the next prompt (observed with 2.1.332, `-p` and interactive).
 */
import type { HookEvents, Transition } from '../adapter.ts';
import { ended, idle, permissionReason, SESSION_ID_KEYS, sessionIdAt, str, waiting, working } from '../hook-kit.ts';

/** Events whose hooks move the status; the wrapper and `hooks install` register exactly these. */
export const CLAUDE_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'Notification', 'Stop', 'StopFailure', 'SessionEnd'] as const;

/** Claude's default cap on consecutive Stop-hook blocks (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, 2.1.332). */
export const CLAUDE_DEFAULT_BLOCK_CAP = 8;

/**
 * The cap Claude applies, from its environment (the hook inherits Claude's): 0 means no cap, as in
 * Claude (`cap > 0 && blocks > cap`). Anything unparseable is Claude's default.
 */
export function blockCapFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP?.trim();
  if (!raw || !/^-?\d+$/.test(raw)) return CLAUDE_DEFAULT_BLOCK_CAP;
  return Math.max(0, Number(raw));
}

function transition(event: string, p: Record<string, unknown>): Transition | null {
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
      // idle_prompt fires 60 s after Stop: still idle, not waiting.
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

export const claudeHooks: HookEvents = {
  transition,
  sessionIdOf: (p) => sessionIdAt(p, SESSION_ID_KEYS),
  // Claude names its own process to every hook it runs.
  processOf: (env) => {
    const pid = Number(env.CLAUDE_PID);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  },
  turnEnd: { event: 'Stop', viaWrapper: true, defaultBlockCap: CLAUDE_DEFAULT_BLOCK_CAP, blockCapFrom },
};
