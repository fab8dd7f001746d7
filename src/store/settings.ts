/**
 * Muster's own settings: a registry of known keys, each with a validator and a default.
 * An unknown key or a value of the wrong type is refused with `invalid_setting` (HTTP 400).
 * Later capabilities add their keys here.
 */
import { MusterError } from '../errors/index.ts';

export type SettingValue = string | number | boolean | null;

interface SettingDef {
  default: SettingValue;
  /** Returns the normalised value, or undefined when the value is not acceptable. */
  check(v: unknown): SettingValue | undefined;
  describe: string;
}

const oneOf = (...allowed: string[]) => (v: unknown) => (typeof v === 'string' && allowed.includes(v) ? v : undefined);
const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const intRange = (min: number, max: number) => (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined;
const text = (max: number) => (v: unknown) => (typeof v === 'string' && v.length <= max ? v : undefined);
const httpUrl = (v: unknown) => (typeof v === 'string' && v.length <= 2000 && (v === '' || /^https?:\/\/[^\s]+$/i.test(v)) ? v : undefined);

export const SETTINGS: Record<string, SettingDef> = {
  theme: { default: 'system', check: oneOf('system', 'dark', 'light'), describe: 'board colour scheme: system | dark | light' },
  rescanSeconds: { default: 60, check: intRange(30, 3600), describe: 'slow safety rescan of harness files, seconds (30..3600)' },
  auditEnabled: { default: true, check: bool, describe: 'goal auditor on/off' },
  auditModel: { default: '', check: text(200), describe: "goal auditor spec ('' = the session's own harness and model)" },
  auditTimeoutSeconds: { default: 120, check: intRange(5, 3600), describe: 'bound of one goal audit, seconds (5..3600)' },
  pageExpiryHours: { default: 24, check: intRange(1, 24 * 30), describe: 'hours before an unanswered page expires (1..720)' },
  askWaitSeconds: { default: 45, check: intRange(1, 600), describe: 'how long ask_operator/await_answer wait before returning pending, seconds (1..600)' },
  maxPendingPerSession: { default: 50, check: intRange(1, 10000), describe: 'pending pages one session may hold (1..10000)' },
  notifyDesktop: { default: true, check: bool, describe: 'desktop notifications (notify-send) on/off' },
  webhookUrl: { default: '', check: httpUrl, describe: "webhook URL for page notifications ('' = off; http or https)" },
  webhookFormat: { default: 'json', check: oneOf('json', 'ntfy'), describe: 'webhook body: json | ntfy' },
};

export type Settings = Record<string, SettingValue>;

export function defaultSettings(): Settings {
  return Object.fromEntries(Object.entries(SETTINGS).map(([k, d]) => [k, d.default]));
}

/** Validates a partial update; throws MusterError('invalid_setting') naming the first bad key. */
export function validateSettingsPatch(patch: Record<string, unknown>): Settings {
  const out: Settings = {};
  for (const [key, value] of Object.entries(patch)) {
    // Own keys only: `__proto__`, `constructor` or `toString` must be unknown settings, not Object's members.
    const def = Object.hasOwn(SETTINGS, key) ? SETTINGS[key] : undefined;
    if (!def) throw new MusterError('invalid_setting', `unknown setting '${key}'; known: ${Object.keys(SETTINGS).join(', ')}`);
    const v = def.check(value);
    if (v === undefined) throw new MusterError('invalid_setting', `setting '${key}' must be ${def.describe}`);
    out[key] = v;
  }
  return out;
}
