/**
 * Child process of race.test.ts: one contender for the lock. Reads commands on stdin, one per
 * line: `go` acquires (and reports), `release` releases a held lock (and reports). Each report
 * is one JSON line on stdout. Exits when stdin closes, releasing whatever it holds.
 */
import { isMusterError } from '../../errors/index.ts';
import { acquireLock } from './acquire.ts';
import type { LockHandle } from './types.ts';

const lockPath = process.argv[2];
if (lockPath === undefined) throw new Error('usage: race-child.test-support.ts <lockPath>');

const identity = {
  serviceProtocolVersion: 1,
  buildId: 'muster@0.0.0-race',
  protocolVersion: 1,
  schemaMarker: 'race',
  runtimeVersion: process.version,
};
let handle: LockHandle | undefined;

const report = (value: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...value })}\n`);
};

async function run(command: string): Promise<void> {
  if (command === 'go') {
    try {
      handle = await acquireLock({ lockPath: lockPath as string, identity });
      report({ outcome: 'won' });
    } catch (e) {
      report({ outcome: isMusterError(e) ? e.code : 'crash', details: isMusterError(e) ? e.details : String(e) });
    }
  } else if (command === 'release') {
    handle?.release();
    handle = undefined;
    report({ outcome: 'released' });
  }
}

let buffered = '';
let queue = Promise.resolve();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffered += chunk;
  let newline: number;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const command = buffered.slice(0, newline).trim();
    buffered = buffered.slice(newline + 1);
    queue = queue.then(() => run(command));
  }
});
process.stdin.on('end', () => {
  void queue.then(() => handle?.release());
});
report({ outcome: 'ready' });
