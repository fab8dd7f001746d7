/**
 * `muster down`: stop the daemon that owns this MUSTER_HOME (of this build or another), by SIGTERM to
 * the pid the lock record names — only after the record's start time proved the pid is still that
 * daemon — then wait for the lock to go. Never starts one.
 */
import { existsSync } from 'node:fs';
import { MusterError } from '../../errors/index.ts';
import { readLock, realLiveness } from '../../daemon/lock/index.ts';
import { clientContext } from '../daemon-client.ts';
import { printOk } from '../output.ts';
import type { CommandContext } from '../command.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run({ env, flags }: CommandContext): Promise<number> {
  const ctx = clientContext(env);
  const reading = readLock(ctx.paths.lock, ctx.identity);
  if (reading.state !== 'record' || !reading.alive) {
    printOk({ stopped: false, running: false, home: ctx.paths.home });
    return 0;
  }
  const pid = reading.record.pid;
  try {
    process.kill(pid, 'SIGTERM');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw new MusterError('internal', `cannot signal pid ${pid}: ${(e as Error).message}`);
  }
  const deadline = Date.now() + (flags.timeout !== undefined ? Number(flags.timeout) * 1000 : 10_000);
  while (Date.now() < deadline) {
    const r = readLock(ctx.paths.lock, ctx.identity);
    const gone = r.state !== 'record' || r.record.pid !== pid || !r.alive;
    // A zombie counts as stopped: a parent that does not reap it must not hold `down` up.
    if (gone && realLiveness(pid) === 'dead') {
      printOk({ stopped: true, pid, lockRemoved: !existsSync(ctx.paths.lock), home: ctx.paths.home });
      return 0;
    }
    await sleep(20);
  }
  throw new MusterError('daemon_unreachable', `pid ${pid} did not stop within the timeout; check it with \`muster status\``, { details: { pid } });
}
