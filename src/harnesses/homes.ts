/** The user's home as the harnesses see it: `HOME` from the environment Muster was given, else the OS's. */
import { homedir } from 'node:os';

export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || homedir();
}

/** A directory variable's value when set and not blank, else `fallback`. */
export function dirFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const v = env[name]?.trim();
  return v ? v : fallback;
}
