/**
 * Validators of request input, shared by every route. Each returns the value or throws the stable
 * MusterError the routes answer with: `invalid_body` for a field of a JSON body, `invalid_argument`
 * for a query parameter or a path part (a caller may name the other where a route always has), and
 * `invalid_id` for a malformed session id. "Absent" is `undefined` or JSON `null` alike.
 */
import { MusterError } from '../errors/index.ts';
import type { Harness } from '../core/session.ts';
import { HARNESSES, isHarness, isSessionId } from '../harnesses/registry.ts';

/** The two codes of a malformed value: a body field, or a query parameter / path part. */
export type InputCode = 'invalid_body' | 'invalid_argument';

const absent = (v: unknown): v is undefined | null => v === undefined || v === null;

/** A session id from a path or a query: 400 `invalid_id` when it has no harness's format. */
export function sessionIdIn(v: string): string {
  if (!isSessionId(v)) throw new MusterError('invalid_id', 'not a session id (a UUID, or ses_ followed by 26 letters and digits)');
  return v;
}

/** An optional query parameter holding a session id. */
export function optSessionIdIn(v: string | undefined): string | undefined {
  return v === undefined ? undefined : sessionIdIn(v);
}

/** The `sessionId` of a JSON body: `invalid_body` when missing or not a string, `invalid_id` when malformed. */
export function bodySessionId(v: unknown): string {
  if (typeof v !== 'string') throw new MusterError('invalid_body', 'send { "sessionId": "<id>", … }');
  return sessionIdIn(v);
}

/** A harness Muster knows, or undefined when absent. */
export function optHarness(v: unknown, code: InputCode = 'invalid_body'): Harness | undefined {
  if (absent(v)) return undefined;
  if (!isHarness(v)) throw new MusterError(code, `harness must be one of ${HARNESSES.join(', ')}`);
  return v;
}

/** A harness Muster knows; absent is refused like an unknown one. */
export function harnessIn(v: unknown, code: InputCode = 'invalid_body'): Harness {
  const h = optHarness(v, code);
  if (h === undefined) throw new MusterError(code, `harness must be one of ${HARNESSES.join(', ')}`);
  return h;
}

/** One of a closed list of words (a status, a kind), or undefined when absent. */
export function optOneOf<T extends string>(v: unknown, allowed: readonly T[], name: string, code: InputCode = 'invalid_argument'): T | undefined {
  if (absent(v)) return undefined;
  if (!(allowed as readonly unknown[]).includes(v)) throw new MusterError(code, `${name} must be one of ${allowed.join(', ')}`);
  return v as T;
}

/** An integer of a JSON body from `min` (0 or 1) up, or undefined when absent. */
export function optInteger(v: unknown, name: string, min: 0 | 1 = 0): number | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw new MusterError('invalid_body', `${name} must be a ${min === 0 ? 'non-negative' : 'positive'} integer`);
  return v;
}

/** A finite number ≥ 0 (a count of tokens, a number of seconds), or undefined when absent. */
export function optNonNegative(v: unknown, name: string, code: InputCode = 'invalid_body'): number | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new MusterError(code, `${name} must be a non-negative number`);
  return v;
}

/** true or false, or undefined when absent. */
export function optBoolean(v: unknown, name: string): boolean | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'boolean') throw new MusterError('invalid_body', `${name} must be true or false`);
  return v;
}

/** A short string of a JSON body (an id, a name, a path): at most `max` characters, no NUL. */
export function optString(v: unknown, name: string, max = 4096): string | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'string' || v.length > max || v.includes('\0')) throw new MusterError('invalid_body', `${name} must be a string of at most ${max} characters`);
  return v;
}

/** Free text of a JSON body (an objective, a model's reply): at most `max` characters, kept verbatim. */
export function optText(v: unknown, name: string, max: number): string | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'string' || v.length > max) throw new MusterError('invalid_body', `${name} must be a string of at most ${max} characters`);
  return v;
}

/** An absolute path (a cwd) of at most 4096 characters, or undefined when absent. */
export function optAbsolutePath(v: unknown, name: string, code: InputCode = 'invalid_body'): string | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'string' || !v.startsWith('/') || v.length > 4096 || v.includes('\0')) throw new MusterError(code, `${name} must be an absolute path`);
  return v;
}

/** A whole number in a query string, from `min` to `max`, or undefined when absent. */
export function queryInt(raw: string | undefined, name: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new MusterError('invalid_argument', `${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** A yes/no query parameter (`true`, `false`, `1`, `0`), or undefined when absent. */
export function queryBoolean(raw: string | undefined, name: string): boolean | undefined {
  if (raw === undefined) return undefined;
  if (!['true', 'false', '1', '0'].includes(raw)) throw new MusterError('invalid_argument', `${name} must be true or false`);
  return raw === 'true' || raw === '1';
}

/** A host name in a query (`?host=`): 1–64 characters, no control characters; undefined when absent. */
export function queryHost(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // eslint-disable-next-line no-control-regex -- a host name never holds control characters
  if (raw.length < 1 || raw.length > 64 || raw.trim() !== raw || /[\u0000-\u001f\u007f]/.test(raw)) throw new MusterError('invalid_argument', 'host must be a host name (1 to 64 characters)');
  return raw;
}
