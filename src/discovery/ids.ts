/**
 * Session id formats (BEHAVIOUR F). Anything else is refused before it reaches a source,
 * the store or a command. Both checks are anchored and reject trailing newlines.
 */
import type { Harness } from '../core/session.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPENCODE = /^ses_[0-9A-Za-z]{26}$/;

export function isUuid(id: string): boolean {
  return UUID.test(id) && !id.includes('\n');
}

export function isOpenCodeId(id: string): boolean {
  return OPENCODE.test(id) && !id.includes('\n');
}

/** True when `id` has a format some harness uses. */
export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && id.length <= 64 && (isUuid(id) || isOpenCodeId(id));
}

/** True when `id` has the exact format `harness` uses. */
export function isSessionIdFor(harness: Harness, id: string): boolean {
  return harness === 'opencode' ? isOpenCodeId(id) : isUuid(id);
}
