/** A small argv parser: `--flag`, `--key value`, `--key=value`; everything else is positional. */
import { usageError } from './output.ts';

/** Flags that never take a value. */
const BOOLEAN = new Set(['json', 'quiet', 'live', 'print', 'help', 'pending', 'yes']);

export function parseArgs(argv: string[]): { positional: string[]; flags: Record<string, string | boolean> } {
  const positional: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (a === '-h') {
      flags.help = true;
      continue;
    }
    if (!a.startsWith('--') || a === '--') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const key = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (!/^[a-z][a-z0-9-]*$/.test(key)) throw usageError(`bad flag ${a}`);
    if (eq > 0) flags[key] = a.slice(eq + 1);
    else if (BOOLEAN.has(key)) flags[key] = true;
    else {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw usageError(`flag --${key} needs a value`);
      flags[key] = v;
      i++;
    }
  }
  return { positional, flags };
}
