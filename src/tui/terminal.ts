/**
 * The terminal port: size, output, keys and resizes. The real default drives process.stdin/stdout
 * with readline's keypress parser in raw mode on the alternate screen. `restore()` is idempotent and
 * synchronous, so it can run from an exit handler or a crash handler and still leave the shell
 * usable (cursor shown, autowrap on, main screen back, cooked mode).
 */
import { emitKeypressEvents } from 'node:readline';
import { enterScreen, leaveScreen } from './ansi.ts';
import type { Key } from './keys.ts';

export interface Terminal {
  size(): { columns: number; rows: number };
  write(data: string): void;
  onKey(listener: (key: Key) => void): () => void;
  onResize(listener: () => void): () => void;
  /** Raw mode, alternate screen, hidden cursor. */
  enter(): void;
  /** Undoes enter(); safe to call any number of times, and without enter(). */
  restore(): void;
  /** Ctrl-Z: restore, stop the process (SIGTSTP), and on SIGCONT enter again and call `resumed`. */
  suspend(resumed: () => void): void;
}

interface ReadlineKey {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** Normalises readline's (str, key) pair; printable text (pasted too) arrives as `ch`. */
export function toKey(str: string | undefined, key: ReadlineKey | undefined): Key {
  const printable = typeof str === 'string' && str.length > 0 && !/^[\u0000-\u001f\u007f]/.test(str) ? str : null; // eslint-disable-line no-control-regex -- control keys are not text
  // ESC then a letter typed quickly arrives as one meta key ("\x1bs"); keep the letter so the
  // reducer can replay it as Escape followed by that key.
  // eslint-disable-next-line no-control-regex -- matching the escape byte is the point
  const metaCh = key?.meta && !key.ctrl && typeof key.sequence === 'string' && /^\x1b[\x20-\x7e]$/.test(key.sequence) ? key.sequence.slice(1) : null;
  return { name: key?.name ?? '', ch: key?.ctrl ? null : key?.meta ? metaCh : printable, ctrl: Boolean(key?.ctrl), meta: Boolean(key?.meta), shift: Boolean(key?.shift) };
}

export interface NodeTerminalOptions {
  /** Default: process.stdin. */
  input?: NodeJS.ReadStream;
  /** Default: process.stdout. */
  output?: NodeJS.WriteStream;
}

export function createNodeTerminal(options: NodeTerminalOptions = {}): Terminal {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  let entered = false;
  const term: Terminal = {
    size: () => ({ columns: Math.max(20, output.columns || 80), rows: Math.max(5, output.rows || 24) }),
    write: (data) => void output.write(data),
    onKey(listener) {
      const on = (str: string | undefined, key: ReadlineKey | undefined) => listener(toKey(str, key));
      input.on('keypress', on);
      return () => void input.off('keypress', on);
    },
    onResize(listener) {
      output.on('resize', listener);
      return () => void output.off('resize', listener);
    },
    enter() {
      if (entered) return;
      entered = true;
      emitKeypressEvents(input);
      if (input.isTTY) input.setRawMode(true);
      input.resume();
      output.write(enterScreen);
    },
    restore() {
      if (!entered) return;
      entered = false;
      try {
        output.write(leaveScreen);
        if (input.isTTY) input.setRawMode(false);
      } catch {
        // The terminal may already be gone (SIGHUP); nothing left to restore then.
      }
      input.pause();
    },
    suspend(resumed) {
      term.restore();
      process.once('SIGCONT', () => {
        term.enter();
        resumed();
      });
      process.kill(process.pid, 'SIGTSTP');
    },
  };
  return term;
}
