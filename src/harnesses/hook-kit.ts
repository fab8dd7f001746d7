/**
 * Small pieces every adapter's hook mapping uses: the four transitions, a bounded string reader for
 * payload fields, and the session id found under the usual keys. Pure; payloads are untrusted.
 */
import type { Transition } from './adapter.ts';

/** A payload string, bounded (hook payloads come from other programs); null when absent or empty. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v.slice(0, 300) : null);

export const working: Transition = { status: 'working', waitingFor: null };
export const idle: Transition = { status: 'idle', waitingFor: null };
export const ended: Transition = { status: 'ended', waitingFor: null };
export const waiting = (why: string | null): Transition => ({ status: 'waiting', waitingFor: why ?? 'input' });

/** "permission: <tool>" from a payload's `tool_name`, or a generic reason. */
export function permissionReason(p: Record<string, unknown>): string {
  const tool = str(p.tool_name);
  return tool ? `permission: ${tool}` : 'permission prompt';
}

/** The first string among the payload's `keys`. */
export function sessionIdAt(payload: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = payload[k];
    if (typeof v === 'string') return v;
  }
  return null;
}

/** Most harnesses name the session under one of these. */
export const SESSION_ID_KEYS = ['session_id', 'sessionID', 'sessionId'] as const;
