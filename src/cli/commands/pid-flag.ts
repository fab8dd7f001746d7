/** `--pid N` of `muster focus` and `muster end`: one process of a session open in several at once. */
import { usageError } from '../output.ts';

export function pidFlag(value: string | boolean | undefined): { pid?: number } {
  if (value === undefined) return {};
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) throw usageError('--pid takes a process id (a positive integer)');
  return { pid: Number(value) };
}
