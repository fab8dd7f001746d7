/**
 * Plain-object maps keyed by text from harness files (model names, tool call ids). Such a key may
 * be `__proto__`, `constructor` or `toString`: a plain `obj[key]` read would find Object.prototype's
 * members, and `obj['__proto__'] = v` would replace the object's prototype instead of storing an
 * entry. These maps stay plain objects because they are serialised into the transcript index.
 */

/** The entry stored under `key` itself, never one inherited from Object.prototype. */
export function ownValue<T>(obj: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Stores `value` as an own, enumerable entry, also for `__proto__`. Only `__proto__` needs defining
 * (an accessor on Object.prototype); any other key's assignment makes an own entry, and costs far less.
 */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): T {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
  return value;
}
