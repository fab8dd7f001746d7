/** Filesystem checks the domain asks for through ports (the hub may not touch node:fs). */
import { statSync } from 'node:fs';

/** True when `path` is an existing directory (following symlinks); never throws. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
