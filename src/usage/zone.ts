/**
 * Local calendar of an IANA time zone, by arithmetic on offsets: Intl gives the zone's offset at an
 * instant (a few µs each), so offsets are cached per UTC day and only a day whose offset changes
 * (a DST switch) is looked at quarter hour by quarter hour.
 */
import { MusterError } from '../errors/index.ts';

const QUARTER_MS = 900_000;
const DAY_MS = 86_400_000;

/** True when `tz` is a time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  if (tz.length === 0 || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The zone of this process (TZ, else the system's), as Intl resolves it. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export interface Zone {
  readonly tz: string;
  /** Milliseconds to add to UTC for local wall time at `ms`. */
  offsetAt(ms: number): number;
  /** The local date (YYYY-MM-DD) of the quarter hour `q` (floor(ms / 900000)). */
  dayOfQuarter(q: number): string;
  /** Epoch ms of local midnight starting `date` (YYYY-MM-DD). */
  startOfDay(date: string): number;
}

export function createZone(tz: string): Zone {
  if (!isTimeZone(tz)) throw new MusterError('invalid_argument', `unknown time zone '${tz}' (an IANA name such as Europe/Paris or UTC)`);
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const exact = (ms: number): number => {
    const p: Record<string, number> = {};
    for (const part of fmt.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    const wall = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
    return wall - Math.floor(ms / 1000) * 1000;
  };
  // UTC day → [offset at its start, offset at its end]: equal for all but DST days.
  const byDay = new Map<number, [number, number]>();
  const offsetAt = (ms: number): number => {
    const day = Math.floor(ms / DAY_MS);
    let o = byDay.get(day);
    if (!o) byDay.set(day, (o = [exact(day * DAY_MS), exact((day + 1) * DAY_MS - 1)]));
    return o[0] === o[1] ? o[0] : exact(ms);
  };
  const dayKeys = new Map<number, string>();
  return {
    tz,
    offsetAt,
    dayOfQuarter(q) {
      let k = dayKeys.get(q);
      if (k === undefined) {
        const ms = q * QUARTER_MS;
        dayKeys.set(q, (k = new Date(ms + offsetAt(ms)).toISOString().slice(0, 10)));
      }
      return k;
    },
    startOfDay(date) {
      const wall = Date.parse(`${date}T00:00:00Z`);
      // The offset at the guess, then at the corrected instant (they differ only across a switch).
      const first = wall - offsetAt(wall);
      return wall - offsetAt(first);
    },
  };
}

/** `YYYY-MM-DD` or `YYYYMMDD` (as ccusage takes it) → `YYYY-MM-DD`, or undefined when it is not a real date. */
export function parseDate(raw: string): string | undefined {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(raw);
  if (!m) return undefined;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const t = Date.parse(`${iso}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === iso ? iso : undefined;
}

/** The day after `date` (YYYY-MM-DD). */
export function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** Monday of the ISO week holding `date`. */
export function weekOf(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  const dow = (new Date(t).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return new Date(t - dow * DAY_MS).toISOString().slice(0, 10);
}

/** What a terminal's zone is read from: the environment and the system's zoneinfo files. */
export interface ZonePorts {
  env: NodeJS.ProcessEnv;
  /** The target of a symlink, or undefined when `path` is not one. */
  readLink(path: string): string | undefined;
  /** True when `path` exists. */
  exists(path: string): boolean;
}

const ZONEINFO = '/usr/share/zoneinfo';
const UTC_NAMES = new Set(['Etc/UTC', 'Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'UCT', 'Universal', 'Zulu']);

/** An IANA name from a path into a zoneinfo tree (`…/zoneinfo/[posix/|right/]Area/City`), if it is one. */
function zoneFromPath(p: string): string | undefined {
  const at = p.lastIndexOf('zoneinfo/');
  return at < 0 ? undefined : p.slice(at + 'zoneinfo/'.length).replace(/^(posix|right)\//, '');
}

/**
 * The zone of this process as the C library sees it (TZ, else /etc/localtime's link into zoneinfo),
 * without Intl: loading ICU's zone data costs a short-lived CLI ~15 ms. Any case it cannot read that
 * way (a POSIX TZ rule, a copied /etc/localtime) is left to Intl, as `localTimeZone` does.
 */
export function terminalTimeZone(ports: ZonePorts): string {
  const known = (name: string | undefined): string | undefined => {
    if (name === undefined || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return undefined;
    if (!ports.exists(`${ZONEINFO}/${name}`)) return undefined;
    return UTC_NAMES.has(name) ? 'UTC' : name;
  };
  const tz = ports.env.TZ;
  if (tz !== undefined) {
    const name = tz.replace(/^:/, '');
    // An empty TZ is UTC to the C library.
    if (name === '') return 'UTC';
    const found = known(name.startsWith('/') ? zoneFromPath(name) : name);
    if (found) return found;
  } else {
    const link = ports.readLink('/etc/localtime');
    const found = link === undefined ? undefined : known(zoneFromPath(link));
    if (found) return found;
  }
  return localTimeZone();
}
