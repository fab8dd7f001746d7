// Regression (issue 13, point 1): a FIFO named like a file the daemon reads froze it in open().
// Every place the pi source reads — session files at both depths of `sessions/` and the status
// extension's registry — meets a FIFO, a socket and a /dev/zero link: list() answers at once and
// every refusal is counted.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { makeSpecialFile, SPECIAL_KINDS, startFifoUnblocker, timed } from '../../../../test/fakes/special-files.ts';
import { createPiSource } from './pi-source.ts';
import { piSessionDirName } from './session-files.ts';
import { header, sessionFileName, user, writeSession } from './fixture-records.test-support.ts';

const A = '01a22b3e-21fc-76aa-a3ce-53d61728d075';
const BAD = ['01a22b44-a76b-74d9-abab-032e3da72c1f', '01a22b45-0000-7000-8000-00000000000c'];
const TS = '2026-11-30T08:00:00.000Z';
const UNBLOCK_MS = 2000;

describe('pi source: never blocks on a FIFO, socket or device', () => {
  const cleanups: Array<() => void> = [];
  after(() => { for (const c of cleanups) c(); });

  for (const kind of SPECIAL_KINDS) {
    it(`a ${kind} in every read location is skipped promptly and counted`, async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-pi-special-'));
      const unblocker = startFifoUnblocker(root, UNBLOCK_MS);
      cleanups.push(() => { unblocker.stop(); fs.rmSync(root, { recursive: true, force: true }); });
      const home = path.join(root, 'agent');
      const statusDir = path.join(root, 'status');
      const cwdDir = path.join(home, 'sessions', piSessionDirName('/w'));
      writeSession(path.join(cwdDir, sessionFileName(A, TS)), [header(A, '/w', TS), user('still listed', TS)]);
      makeSpecialFile(path.join(cwdDir, sessionFileName(BAD[0] ?? '', TS)), kind);
      makeSpecialFile(path.join(home, 'sessions', sessionFileName(BAD[1] ?? '', TS)), kind);
      makeSpecialFile(path.join(statusDir, '4242.json'), kind);
      const source = createPiSource({ home, statusDir, proc: createFakeProc() });

      const { value, ms } = await timed(() => source.list());
      assert.ok(ms < UNBLOCK_MS / 2, `list() took ${Math.round(ms)} ms`);
      assert.deepEqual(value.map((s) => s.id), [A]);
      const d = source.diagnostics();
      // A link to /dev/zero named like a session file is refused as a link leading outside the home.
      const outside = d.errors.filter((e) => e.includes('leads outside')).length;
      assert.equal(d.notRegularFiles + outside, 3, `two session files and a registry entry: ${d.errors.join('; ')}`);
    });
  }
});
