// Regression (issue 13, point 1): a FIFO named like a file the daemon reads froze it in open().
// Every place the omp source reads — session files (and their title line), run files, the tty's
// terminal pointer, the status registry — meets a FIFO, a socket and a /dev/zero link: list()
// answers at once and every refusal is counted.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { makeSpecialFile, SPECIAL_KINDS, startFifoUnblocker, timed } from '../../../../test/fakes/special-files.ts';
import { ompSessionDirName } from '../../pi/discovery/index.ts';
import { header, ompTitle, sessionFileName, user, writeSession } from '../../pi/discovery/fixture-records.test-support.ts';
import { createOmpSource } from './omp-source.ts';
import { readTitleLine } from './title-line.ts';

const A = '01a22b3f-1418-70af-926e-e05b29b6c8c0';
const BAD = '01a22b3f-9734-7682-beab-1273034798ab';
const U = '66cda080-7843-475a-8125-e3e9429bc5af';
const TS = '2026-11-30T08:00:00.000Z';
const UNBLOCK_MS = 2000;
/** An omp process on /dev/pts/5 (major 136, minor 5), so its terminal pointer is read. */
const OMP = { pid: 777, argv: ['bun', '/h/node_modules/.bin/omp'], exe: '/h/node_modules/bun/bin/bun', ttyNr: (136 << 8) | 5, cwd: '/nowhere' };

describe('omp source: never blocks on a FIFO, socket or device', () => {
  const cleanups: Array<() => void> = [];
  after(() => { for (const c of cleanups) c(); });

  for (const kind of SPECIAL_KINDS) {
    it(`a ${kind} in every read location is skipped promptly and counted`, async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-omp-special-'));
      const unblocker = startFifoUnblocker(root, UNBLOCK_MS);
      cleanups.push(() => { unblocker.stop(); fs.rmSync(root, { recursive: true, force: true }); });
      const home = path.join(root, '.omp');
      const statusDir = path.join(root, 'status');
      const dir = path.join(home, 'agent', 'sessions', ompSessionDirName('/p'));
      writeSession(path.join(dir, sessionFileName(A, TS)), [ompTitle('still listed', TS), header(A, '/p', TS), user('hi', TS)]);
      makeSpecialFile(path.join(dir, sessionFileName(BAD, TS)), kind);
      makeSpecialFile(path.join(home, 'run', 'daemons', 'a1b2c3d4e5f60718', 'clients', `777-${U}.json`), kind);
      makeSpecialFile(path.join(home, 'agent', 'terminal-sessions', 'pts-5'), kind);
      makeSpecialFile(path.join(statusDir, '777.json'), kind);
      const proc = createFakeProc();
      proc.add(OMP);
      const source = createOmpSource({ home, statusDir, proc });

      const { value, ms } = await timed(() => source.list());
      assert.ok(ms < UNBLOCK_MS / 2, `list() took ${Math.round(ms)} ms`);
      assert.deepEqual(value.map((s) => [s.id, s.title]), [[A, 'still listed']]);
      const d = source.diagnostics();
      // A link to /dev/zero named like a session file is refused as a link leading outside the home.
      const outside = d.errors.filter((e) => e.includes('leads outside')).length;
      assert.equal(d.notRegularFiles + outside, 4, `a session file, a run file, a pointer, a registry entry: ${d.errors.join('; ')}`);

      // The title line is re-read after the listing: a file swapped for a FIFO since must not block it either.
      const t = await timed(async () => readTitleLine(path.join(dir, sessionFileName(BAD, TS))));
      assert.ok(t.ms < UNBLOCK_MS / 2 && t.value === null, `title line: ${Math.round(t.ms)} ms`);
    });
  }
});
