/**
 * GitHub Copilot CLI's command hooks (settings.json `hooks`, or a plugin's hooks/hooks.json) → status,
 * and `agentStop` as the goal driver's turn end: a `{ decision: 'block', reason }` answer makes
 * Copilot send the reason as the next prompt in the same session and process (observed with 1.0.102
 * in `-p` and interactively; later agentStops of the chain carry `stop_hook_active: true`).
 *
 * Payloads are camelCase (`sessionId`, `toolName`, `cwd`, `transcriptPath`) with a few Claude-style
 * keys (`notification_type`, `stop_hook_active`). Observed: in the TUI, `sessionStart` fires only
 * with the first prompt, not when the TUI opens; `permissionRequest` fires even when a tool is
 * approved by policy (`--allow-all-tools`), so only the `permission_prompt` notification, which
 * fires when a prompt is on screen, means the session waits.
 */
import type { HookEvents, Transition } from '../adapter.ts';
import { ended, idle, SESSION_ID_KEYS, sessionIdAt, str, waiting, working } from '../hook-kit.ts';

/** Events whose hooks move the status; the wrapper and `hooks install` register exactly these. */
export const COPILOT_HOOK_EVENTS = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'postToolUseFailure', 'notification', 'agentStop', 'sessionEnd'] as const;

/** Consecutive agentStop blocks Copilot CLI 1.0.102 honours. */
export const COPILOT_BLOCK_CAP = 8;

/** The turn-end event whose `decision: block` continues the session. */
export const COPILOT_TURN_END = 'agentStop';

function transition(event: string, p: Record<string, unknown>): Transition | null {
  switch (event) {
    case 'sessionStart':
    case 'agentStop':
      return idle;
    case 'userPromptSubmitted':
    case 'preToolUse':
    case 'postToolUse':
    case 'postToolUseFailure':
      return working;
    case 'notification':
      return str(p.notification_type) === 'permission_prompt' ? waiting(str(p.message) ?? 'permission prompt') : null;
    case 'sessionEnd':
      return ended;
    default:
      return null;
  }
}

export const copilotHooks: HookEvents = {
  transition,
  sessionIdOf: (p) => sessionIdAt(p, SESSION_ID_KEYS),
  // Observed: the 9th block in a row is not honoured ("Agent stop hook blocked 8 consecutive times;
  // ending turn." in its log; `sessionAgentStopMaxConsecutiveBlocks` in the runtime, with no documented
  // setting), so the goal driver hands that continuation off instead of losing it.
  turnEnd: { event: COPILOT_TURN_END, viaWrapper: true, defaultBlockCap: COPILOT_BLOCK_CAP },
};
