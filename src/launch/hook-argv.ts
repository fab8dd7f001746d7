/** argv that re-runs this CLI's `hook` command: from the bundle (dist/cli.js) and from source under tsx alike. */
import { resolve } from 'node:path';
import { MusterError } from '../errors/index.ts';

export function musterHookArgv(entry: string | undefined = process.argv[1]): string[] {
  if (!entry) throw new MusterError('internal', 'cannot tell which muster entry point is running');
  return [process.execPath, ...process.execArgv, resolve(entry), 'hook'];
}

/** argv that runs this CLI (node, its flags, the entry script), to which a command and its arguments are appended. */
export function musterCliArgv(entry: string | undefined = process.argv[1]): string[] {
  return musterHookArgv(entry).slice(0, -1);
}
