/** Hook event names as they arrive in URLs: letters, digits, `_`, `.`, `-`; bounded. */
export function isEventName(v: unknown): v is string {
  return typeof v === 'string' && /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(v);
}
