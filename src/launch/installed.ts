/** Which harness CLIs are on PATH (for `muster <harness>` and its "unknown harness" error). */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Harness } from '../core/session.ts';
import { adapterFor, HARNESSES } from '../harnesses/registry.ts';

/** The absolute path of `bin` on PATH, or null. */
export function whichBin(bin: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, bin);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {}
  }
  return null;
}

export function installedHarnesses(env: NodeJS.ProcessEnv = process.env): Harness[] {
  return HARNESSES.filter((h) => whichBin(adapterFor(h).bin, env) !== null);
}

/** Harness ids that are also Muster command names: such an id could never be launched. */
export function collidingHarnesses(commands: readonly string[]): Harness[] {
  return HARNESSES.filter((h) => commands.includes(h));
}
