/**
 * Muster's own settings: a registry of known keys, each with a validator and a default.
 * An unknown key or a value of the wrong type is refused with `invalid_setting` (HTTP 400).
 * Later capabilities add their keys here.
 */
import { MusterError } from '../errors/index.ts';
import { auditorHarnesses } from '../harnesses/ports.ts';

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
const httpUrl = (v: unknown) => (typeof v === 'string' && v.length <= 2000 && (v === '' || /^https?:\/\/[^\s]+$/i.test(v)) ? v : undefined);

export const SETTINGS: Record<string, SettingDef> = {
  theme: { default: 'system', check: oneOf('system', 'dark', 'light'), describe: 'board colour scheme: system | dark | light' },
  rescanSeconds: { default: 60, check: intRange(30, 3600), describe: 'slow safety rescan of harness files, seconds (30..3600)' },
  auditEnabled: { default: true, check: bool, describe: 'goal auditor on/off' },
  auditModel: { default: '', check: auditSpec, describe: `a goal auditor spec: ${AUDIT_FORMS} ('' = the session's own harness and model)` },
  goalDefaultTokenBudget: { default: 0, check: intRange(0, 1_000_000_000), describe: 'token budget of a goal set without one (0 = none; 0..1000000000)' },
  goalDefaultMaxTurns: { default: 50, check: intRange(1, 10_000), describe: 'turn ceiling of a goal set without one (1..10000)' },
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
