/**
 * omp's per-tty pointers `<ompHome>/agent/terminal-sessions/pts-<N>` (harnesses/pi-and-omp.md §B2):
 * line 1 the cwd, line 2 the session file the interactive process on that tty has open, then
 * `cwdstat <dev> <ino>`. A pointer outlives its process, so it is trusted only when written since
 * the process now on that tty started.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface TerminalPointer {
  cwd: string;
  sessionFile: string;
  mtimeMs: number;
}

/** Unix98 pty slaves use majors 136–143; tty_nr packs major in bits 8–19 and minor in 0–7 and 20–31. */
export function ptsNumber(ttyNr: number): number | null {
  if (ttyNr <= 0) return null;
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  if (major < 136 || major > 143) return null;
  return (major - 136) * 256 + minor;
}

export function readTerminalPointer(dir: string, pts: number): TerminalPointer | null {
  const file = path.join(dir, `pts-${pts}`);
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > 64 * 1024) return null;
    const [cwd, sessionFile] = fs.readFileSync(file, 'utf8').split('\n');
    if (!cwd || !sessionFile || !path.isAbsolute(sessionFile) || !sessionFile.endsWith('.jsonl')) return null;
    return { cwd, sessionFile, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}
