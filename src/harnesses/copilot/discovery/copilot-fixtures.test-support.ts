/**
 * Test support for the Copilot source: temp COPILOT_HOMEs made from the real session folders Copilot
 * CLI 1.0.102 wrote against the fake model (../fixtures/, copied from runs recorded in the README), a
 * native-looking process for the shared fake ProcPort, and helpers to cut a real events.jsonl short.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
/** `copilot --allow-all-tools -p 'RUNCMD: echo hi > q.txt'` with a plugin's hooks: one bash call, two model calls. */
export const PRINT_ID = '5cc8f3ca-f9db-459d-bc83-4513f6938117';
/** Interactive: a bash call approved at its permission prompt, `/exit`, resumed, one more prompt, SIGTERM. */
export const TUI_ID = 'c84bb9d8-758e-4d20-aed9-569f1f957173';
/** The native CLI as /proc shows it (the npm loader's child). */
export const NATIVE = '/usr/lib/node_modules/@github/copilot/node_modules/@github/copilot-linux-x64/copilot';

export function tempHome(prefix = 'muster-copilot-'): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(home, 'session-state'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export function sessionDir(home: string, id: string): string {
  return join(home, 'session-state', id);
}

/** Copies a fixture session into `home`; `keep` cuts its events.jsonl after the first line it accepts. */
export function copySession(home: string, id: string, keep?: (line: string) => boolean): string {
  const dir = sessionDir(home, id);
  cpSync(join(FIXTURES, 'session-state', id), dir, { recursive: true });
  if (keep) writeFileSync(join(dir, 'events.jsonl'), eventsUntil(id, keep));
  return dir;
}

/** The fixture's events.jsonl up to and including the first line `stop` accepts. */
export function eventsUntil(id: string, stop: (line: string) => boolean): string {
  const lines = readFileSync(join(FIXTURES, 'session-state', id, 'events.jsonl'), 'utf8').split('\n');
  const at = lines.findIndex(stop);
  return `${lines.slice(0, at < 0 ? lines.length : at + 1).join('\n')}\n`;
}

/** Marks `pid` as having `dir`'s session open: the `inuse.<pid>.lock` file and its `.hold` (the lock is the fake's). */
export function touchInuse(dir: string, pid: number): { lock: string; hold: string } {
  const lock = join(dir, `inuse.${pid}.lock`);
  const hold = join(dir, `inuse.${pid}.hold`);
  writeFileSync(lock, String(pid));
  writeFileSync(hold, '');
  return { lock, hold };
}
