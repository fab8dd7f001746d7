/**
 * Recognising pi and omp processes in the process table.
 * pi sets `process.title = "pi"`: its cmdline becomes `pi` plus NUL padding and comm is `pi`, while
 * exe stays the node binary — so pi is matched by comm/argv0 *and* a JavaScript runtime executable,
 * never by the name alone (any program may be called `pi`). omp keeps its real argv
 * (`bun …/.bin/omp --resume 01a2…`), so it is matched by its script in the first two argv slots.
 */
import path from 'node:path';
import type { ProcInfo } from '../../../discovery/proc/types.ts';

const RUNTIME = /^(node|nodejs|bun)([-.]?\d[\w.]*)?(\.exe)?$/; // npm bun installs its binary as bun.exe

function isRuntime(exe: string | null): boolean {
  return exe !== null && RUNTIME.test(path.basename(exe));
}

/** pi's own script path, for a pi that has not (yet) rewritten its title. */
const PI_SCRIPT = /[/\\]@mariozechner[/\\]pi-coding-agent[/\\]|[/\\]\.bin[/\\]pi$/;
const OMP_SCRIPT = /[/\\]@oh-my-pi[/\\]pi-coding-agent[/\\]|(^|[/\\])omp$/;

export function isPiProcess(p: ProcInfo): boolean {
  if (!isRuntime(p.exe)) return false;
  if (p.comm === 'pi' || p.argv[0] === 'pi') return true;
  return p.argv.slice(0, 2).some((a) => PI_SCRIPT.test(a));
}

export function isOmpProcess(p: ProcInfo): boolean {
  // A compiled omp is its own executable; the npm one is `bun <script>` (or node, for a shim).
  const head = p.argv.slice(0, 2);
  if (p.exe !== null && path.basename(p.exe) === 'omp') return true;
  return head.some((a) => OMP_SCRIPT.test(a)) && (isRuntime(p.exe) || p.argv[0] !== undefined && OMP_SCRIPT.test(p.argv[0]));
}

/** Option values of `--flag v` / `--flag=v` in an argv (pi `--session`, omp `--resume`). */
export function argValues(argv: string[], flags: string[]): string[] {
  const out: string[] = [];
  argv.forEach((a, i) => {
    for (const f of flags) {
      if (a === f && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) out.push(argv[i + 1]!);
      else if (a.startsWith(`${f}=`)) out.push(a.slice(f.length + 1));
    }
  });
  return out;
}
