/**
 * Muster's own settings: a registry of known keys, each with a validator and a default.
 * An unknown key or a value of the wrong type is refused with `invalid_setting` (HTTP 400).
 * Later capabilities add their keys here.
 */
import { MusterError } from '../errors/index.ts';
import { auditorHarnesses } from '../harnesses/ports.ts';

export type SettingValue = string | number | boolean | null;

interface SettingDef<T extends SettingValue> {
  default: T;
  /** Returns the normalised value, or undefined when the value is not acceptable. */
  check(v: unknown): T | undefined;
  describe: string;
}

const oneOf = <T extends string>(...allowed: T[]) => (v: unknown): T | undefined => (typeof v === 'string' && (allowed as string[]).includes(v) ? (v as T) : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const intRange = (min: number, max: number) => (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined;
/** Auditor specs the goals can build: '' (the session's own harness), a provider's model, or a harness that can audit. */
const AUDIT_FORMS = ["''", 'anthropic/<model>', 'openai/<model>', ...auditorHarnesses.auditorNames().map((n) => `cli:${n}[/<model>]`)].join(', ');
function auditSpec(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 200) return undefined;
  const spec = v.trim();
  if (spec === '') return '';
  const slash = spec.indexOf('/');
  const head = slash < 0 ? spec : spec.slice(0, slash);
  const model = slash < 0 ? '' : spec.slice(slash + 1).trim();
  if ((head === 'anthropic' || head === 'openai') && model !== '') return spec;
  if (head.startsWith('cli:') && auditorHarnesses.auditor(head.slice(4)) !== null && (slash < 0 || model !== '')) return spec;
  return undefined;
}
const httpUrl = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 2000 && (v === '' || /^https?:\/\/[^\s]+$/i.test(v)) ? v : undefined);

const usdAmount = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1_000_000 ? v : undefined);

/** One setting: its value's type is what `check` accepts. */
const setting = <T extends SettingValue>(d: SettingDef<T>): SettingDef<T> => d;

export const SETTINGS = {
  theme: setting({ default: 'system', check: oneOf('system', 'dark', 'light'), describe: 'board colour scheme: system | dark | light' }),
  rescanSeconds: setting({ default: 60, check: intRange(30, 3600), describe: 'slow safety rescan of harness files, seconds (30..3600)' }),
  auditEnabled: setting({ default: true, check: bool, describe: 'goal auditor on/off' }),
  auditModel: setting({ default: '', check: auditSpec, describe: `a goal auditor spec: ${AUDIT_FORMS} ('' = the session's own harness and model)` }),
  goalDefaultTokenBudget: setting({ default: 0, check: intRange(0, 1_000_000_000), describe: 'token budget of a goal set without one (0 = none; 0..1000000000)' }),
  goalDefaultMaxTurns: setting({ default: 50, check: intRange(1, 10_000), describe: 'turn ceiling of a goal set without one (1..10000)' }),
  auditTimeoutSeconds: setting({ default: 120, check: intRange(5, 3600), describe: 'bound of one goal audit, seconds (5..3600)' }),
  pageExpiryHours: setting({ default: 24, check: intRange(1, 24 * 30), describe: 'hours before an unanswered page expires (1..720)' }),
  askWaitSeconds: setting({ default: 45, check: intRange(1, 600), describe: 'how long ask_operator/await_answer wait before returning pending, seconds (1..600)' }),
  maxPendingPerSession: setting({ default: 50, check: intRange(1, 10000), describe: 'pending pages one session may hold (1..10000)' }),
  notifyDesktop: setting({ default: true, check: bool, describe: 'desktop notifications (notify-send) on/off' }),
  webhookUrl: setting({ default: '', check: httpUrl, describe: "webhook URL for page notifications ('' = off; http or https)" }),
  webhookFormat: setting({ default: 'json', check: oneOf('json', 'ntfy'), describe: 'webhook body: json | ntfy' }),
  fleetAcceptCommands: setting({ default: true, check: bool, describe: "fleet: run other hosts' commands on this host's sessions, pages and goals (false: read-only to them)" }),
  dailyBudgetUsd: setting({ default: 0, check: usdAmount, describe: "today's spend that sends one notification, USD (0 = none; 0..1000000)" }),
  searchToolOutput: setting({ default: false, check: bool, describe: 'search also indexes raw tool output (true | false); applies to transcript bytes read after the change' }),
  monthlyBudgetUsd: setting({ default: 0, check: usdAmount, describe: "this month's spend that sends one notification, USD (0 = none; 0..1000000)" }),
};

export type SettingKey = keyof typeof SETTINGS;

/** Every setting with the type of its own value (`theme: 'system' | 'dark' | 'light'`, `rescanSeconds: number`, …). */
export type Settings = { [K in SettingKey]: (typeof SETTINGS)[K]['default'] };

// Own keys only: `__proto__`, `constructor` or `toString` must be unknown settings, not Object's members.
const defOf = (key: string): SettingDef<SettingValue> | undefined => (Object.hasOwn(SETTINGS, key) ? SETTINGS[key as SettingKey] : undefined);

export function defaultSettings(): Settings {
  return Object.fromEntries(Object.entries(SETTINGS).map(([k, d]) => [k, d.default])) as Settings;
}

/** Validates a partial update; throws MusterError('invalid_setting') naming the first bad key. */
export function validateSettingsPatch(patch: Record<string, unknown>): Partial<Settings> {
  const out: Partial<Record<SettingKey, SettingValue>> = {};
  for (const [key, value] of Object.entries(patch)) {
    const def = defOf(key);
    if (!def) throw new MusterError('invalid_setting', `unknown setting '${key}'; known: ${Object.keys(SETTINGS).join(', ')}`);
    const v = def.check(value);
    if (v === undefined) throw new MusterError('invalid_setting', `setting '${key}' must be ${def.describe}`);
    out[key as SettingKey] = v;
  }
  return out as Partial<Settings>;
}

/**
 * Settings from stored `[key, value]` pairs over the defaults. A key no longer known is ignored and a
 * value its setting no longer accepts reads as the default, rather than failing the whole read.
 */
export function settingsFrom(stored: Iterable<readonly [string, unknown]>): Settings {
  const out: Record<string, SettingValue> = defaultSettings();
  for (const [key, value] of stored) {
    const v = defOf(key)?.check(value);
    if (v !== undefined) out[key] = v;
  }
  return out as Settings;
}
