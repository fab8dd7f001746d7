/**
 * The built status plugin and extension (see build: scripts/build.mjs bundles pi/extension.ts twice and
 * opencode/plugin.ts into dist/status-assets/, each a self-contained ES module starting with
 * STATUS_MARKER). The wrapper and `hooks install` copy their text into place.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MusterError } from '../../errors/index.ts';
import type { StatusAssetName } from '../../hooks/install/target.ts';

/** dist/status-assets beside the bundle (dist/cli.js), or the checkout's dist/ when run from source. */
export function statusAssetDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Bundled, this module sits beside cli.js or in its chunks/ (in dist/, or a copy of it); from
  // source, in src/harnesses/status-assets/.
  const bundle = basename(here) === 'chunks' ? dirname(here) : here;
  const beside = join(bundle, 'status-assets');
  return existsSync(beside) ? beside : join(here, '..', '..', '..', 'dist', 'status-assets');
}

const cache = new Map<StatusAssetName, string>();

/** The text of a built asset. Throws `internal` when the build is missing (run `npm run build`). */
export function readStatusAsset(name: StatusAssetName, dir = statusAssetDir()): string {
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  let text: string;
  try {
    text = readFileSync(join(dir, `${name}.js`), 'utf8');
  } catch (e) {
    throw new MusterError('internal', `the built ${name} is missing from ${dir}; run npm run build`, { cause: e });
  }
  cache.set(name, text);
  return text;
}
