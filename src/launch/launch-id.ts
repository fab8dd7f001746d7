/** Launch ids: `lch_` + 12 hex digits of ms time + 10 random hex digits, so they sort by time. */
import { randomBytes } from 'node:crypto';

export function newLaunchId(now: number = Date.now()): string {
  return `lch_${now.toString(16).padStart(12, '0')}${randomBytes(5).toString('hex')}`;
}

export const LAUNCH_ID_RE = /^lch_[0-9a-f]{22}$/;

export function isLaunchId(v: unknown): v is string {
  return typeof v === 'string' && LAUNCH_ID_RE.test(v);
}
