/**
 * OpenCode has no command hooks: Muster's status plugin forwards these bus events from inside the
 * OpenCode process (the event type is the hook event name; the payload is the event's properties).
 */
import type { HookEvents, Transition } from '../adapter.ts';
import { ended, idle, sessionIdAt, str, waiting, working } from '../hook-kit.ts';

/** The bus events the plugin forwards. */
export const OPENCODE_PLUGIN_EVENTS = ['session.status', 'session.idle', 'permission.asked', 'permission.replied', 'question.asked'] as const;

function transition(event: string, p: Record<string, unknown>): Transition | null {
  switch (event) {
    case 'session.status': {
      const type = str((p.status as Record<string, unknown> | undefined)?.type);
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

/**
 * `session.idle` is the turn end: the TUI plugin reports it with the session's last assistant text and
 * sends a goal's continuation through the server it talks to (`promptAsync`).
 */
export const opencodeHooks: HookEvents = {
  transition,
  sessionIdOf: (p) => sessionIdAt(p, ['sessionID', 'session_id', 'sessionId']),
  turnEnd: { event: 'session.idle', viaWrapper: true, defaultBlockCap: 0 },
};
