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

/** The entry stored under `key` itself; when there is none, `make()` stored there as an own entry. */
export function ownEntry<T>(obj: Record<string, T>, key: string, make: () => T): T {
  return Object.hasOwn(obj, key) ? (obj[key] as T) : setOwn(obj, key, make());
}

/**
 * An empty plain object (Object.prototype, serialised as `{}`) for many distinct keys from harness
 * files, such as tool call ids. V8 gives each new key of an object literal a hidden class of its own:
 * a Codex fold of 27,000 tool calls spent ~60-90 ms on them (a scratch bench, /tmp/exp-s39/own4.mjs).
 * An object made without a prototype is kept as a hash table, and giving it Object.prototype
 * afterwards keeps it so: about half the cost. Only the speed differs; it is an ordinary object.
 */
export function keyedObject<T>(): Record<string, T> {
  return Object.setPrototypeOf(Object.create(null), Object.prototype) as Record<string, T>;
}
