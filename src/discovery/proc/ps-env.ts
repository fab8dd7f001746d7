/**
 * How `ps` is run where there is no /proc (macOS). Its `lstart` is printed with the locale's day and
 * month names and in the local time zone, and both vary with the environment: a German locale writes
 * other words, and local time repeats an hour when daylight saving ends. So ps always runs with
 * LC_ALL=C and TZ=UTC, and every lstart is read back as UTC.
 */

/** The environment `ps` runs with: the caller's, with LC_ALL=C and TZ=UTC. */
export function psEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, LC_ALL: 'C', TZ: 'UTC' };
}

/** ms since the epoch of an `lstart` printed under psEnv (`Tue Dec  1 12:00:00 2026`); NaN when unparseable. */
export function parseLstart(lstart: string): number {
  const t = lstart.trim();
  return t === '' ? NaN : Date.parse(`${t} UTC`);
}
