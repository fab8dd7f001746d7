/**
 * Where a worker thread's entry file is: built beside the bundle (dist/, or dist/chunks/ for the module
 * asking), or its source under src/ when running from source.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `built` beside the bundle, or `source` (a path under src/) from a module of src/daemon; null when absent. */
export function workerEntry(moduleUrl: string, built: string, source: string[]): string | null {
  const here = dirname(fileURLToPath(moduleUrl));
  const dist = basename(here) === 'chunks' ? dirname(here) : here;
  const candidates = basename(dist) === 'dist' ? [join(dist, built)] : [join(here, '..', ...source)];
  return candidates.find((p) => existsSync(p)) ?? null;
}
