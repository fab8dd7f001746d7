/**
 * A fake `ps` executable for the tests of the ps-based readers (macOS has no /proc): a shell script on
 * a temp PATH that appends the TZ and LC_ALL it was run with to a log and prints one process, 4242,
 * started at `lstart` — the words a real ps under LC_ALL=C would print, in whatever zone the caller
 * claims. Lets a test check the environment a reader gives ps through a real child process.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakePs {
  /** Directory to put first on PATH. */
  dir: string;
  /** `TZ=… LC_ALL=…` per ps call, in order. */
  calls(): string[];
  cleanup(): void;
}

export function createFakePs(lstart: string): FakePs {
  const dir = mkdtempSync(join(tmpdir(), 'muster-fake-ps-'));
  const log = join(dir, 'env.log');
  const script = `#!/bin/sh
echo "TZ=$TZ LC_ALL=$LC_ALL" >> '${log}'
case "$*" in
  *lstart=,tty=*) echo " 4242     1  4242     0 ${lstart} ??       /usr/local/bin/claude" ;;
  *args=*) echo " 4242 claude --resume x" ;;
  *lstart=*) echo "${lstart}" ;;
esac
`;
  writeFileSync(join(dir, 'ps'), script);
  chmodSync(join(dir, 'ps'), 0o755);
  return {
    dir,
    calls: () => { try { return readFileSync(log, 'utf8').trim().split('\n'); } catch { return []; } },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `fn` with `dir` first on PATH and the process in time zone `tz`, restoring both after. */
export function withPathAndZone<T>(dir: string, tz: string, fn: () => T): T {
  const saved = { PATH: process.env.PATH, TZ: process.env.TZ };
  process.env.PATH = `${dir}:${saved.PATH ?? ''}`;
  process.env.TZ = tz; // Node re-reads the zone when TZ is assigned
  try {
    return fn();
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.TZ === undefined) delete process.env.TZ;
    else process.env.TZ = saved.TZ;
  }
}
