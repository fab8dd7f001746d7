/**
 * Codex's hooks (hooks.json in Claude's shape, stdin JSON; each handler must be trusted once in
 * Codex's /hooks before it runs) plus `notify` (one argv JSON argument per finished turn). `Stop`
 * can block and continue the turn like Claude's.
 */
import type { HookEvents, Transition } from '../adapter.ts';
import { ended, idle, permissionReason, SESSION_ID_KEYS, sessionIdAt, waiting, working } from '../hook-kit.ts';

/** Events that load from hooks.json (`Notification` is ignored by Codex 0.171.0). */
export const CODEX_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'Interrupt', 'SessionEnd'] as const;

function transition(event: string, p: Record<string, unknown>): Transition | null {
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

export const codexHooks: HookEvents = {
  transition,
  // notify names the thread as `thread-id`; hooks use `session_id`.
  sessionIdOf: (p) => sessionIdAt(p, ['thread-id', ...SESSION_ID_KEYS]),
  turnEnd: { event: 'Stop', viaWrapper: false, defaultBlockCap: 0 },
};
