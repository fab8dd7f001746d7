/**
 * omp's per-tty pointers `<ompHome>/agent/terminal-sessions/pts-<N>`:
 * line 1 the cwd, line 2 the session file the interactive process on that tty has open, then
 * `cwdstat <dev> <ino>`. A pointer outlives its process, so it is trusted only when written since
 * the process now on that tty started.
 */
import path from 'node:path';
import { isNotRegularFile, readRegularFile } from '../../../discovery/regular-file/index.ts';

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

/** The pointer of tty `pts`, or null; `onRefused` hears a pointer that is not a regular file (never read). */
export function readTerminalPointer(dir: string, pts: number, onRefused: () => void = () => {}): TerminalPointer | null {
  const file = path.join(dir, `pts-${pts}`);
  try {
    const { bytes, stats: st } = readRegularFile(file, 64 * 1024);
    const [cwd, sessionFile] = bytes.toString('utf8').split('\n');
    if (!cwd || !sessionFile || !path.isAbsolute(sessionFile) || !sessionFile.endsWith('.jsonl')) return null;
    return { cwd, sessionFile, mtimeMs: st.mtimeMs };
  } catch (e) {
    if (isNotRegularFile(e)) onRefused();
    return null;
  }
}
