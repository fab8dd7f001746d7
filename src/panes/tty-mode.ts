/**
 * Whether the program on a process's terminal reads keys itself or lets the terminal driver collect
 * lines. Every agent TUI puts its terminal in raw (or cbreak) mode: ICANON off, each key goes to it.
 * With ICANON on — a print-mode run, a shell command in the foreground — typed text waits in the line
 * buffer for whatever reads the terminal next, which may be the shell once that program exits: text
 * meant as a prompt would run as a command. So Muster types only into a terminal in key mode.
 *
 * Linux: the terminal is the one on the process's stdin (/proc/<pid>/fd/0, a /dev/pts/N), its mode
 * from `stty -F <tty> -a` (an argv, no shell; stty opens the device non-blocking and only reads it).
 */
import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';

/** `keys`: ICANON off, the program reads each key; `lines`: ICANON on, the driver buffers lines. */
export type TtyMode = 'keys' | 'lines';

export interface TtyModeOptions {
  /** Default: '/proc'. */
  procRoot?: string;
  /** Runs `stty` with these arguments; resolves its stdout. Default: execFile('stty', args), bounded to 3 s. */
  stty?: (args: string[]) => Promise<string>;
}

const PTY = /^\/dev\/pts\/\d{1,7}$/;

/** `stty -a` output → the mode, or null when it names neither. */
export function parseSttyMode(out: string): TtyMode | null {
  if (/(^|\s)-icanon(\s|;|$)/.test(out)) return 'keys';
  if (/(^|\s)icanon(\s|;|$)/.test(out)) return 'lines';
  return null;
}

/** Reads the mode of the terminal `pid` has on its stdin; null when it has none (not a pty) or it cannot be read. Never rejects. */
export function createTtyModeReader(options: TtyModeOptions = {}): (pid: number) => Promise<TtyMode | null> {
  const procRoot = options.procRoot ?? '/proc';
  const stty =
    options.stty ??
    ((args: string[]) =>
      new Promise<string>((resolve, reject) => {
        execFile('stty', args, { timeout: 3000, encoding: 'utf8' }, (e, out) => (e ? reject(e) : resolve(out)));
      }));
  return async (pid) => {
    if (!Number.isSafeInteger(pid) || pid <= 0) return null;
    let tty: string;
    try {
      tty = readlinkSync(`${procRoot}/${pid}/fd/0`);
    } catch {
      return null;
    }
    if (!PTY.test(tty)) return null;
    try {
      return parseSttyMode(await stty(['-F', tty, '-a']));
    } catch {
      return null;
    }
  };
}
