// Regression (issue 13, point 1): a FIFO named like a file the daemon reads froze it in open().
// Every place the OpenCode source reads — the SQLite store and its side files, the legacy JSON
// tree's session and message records — meets a FIFO, a socket and a /dev/zero link: list()
// answers at once and every refusal is counted.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { makeSpecialFile, SPECIAL_KINDS, startFifoUnblocker, timed } from '../../../../test/fakes/special-files.ts';
import { createFixtureStore, fixtureSessionId, userMessage } from './fixture-store.test-support.ts';
import { createOpenCodeSource } from './source.ts';

const UNBLOCK_MS = 2000;
const LEGACY = fixtureSessionId(7);
const BAD = fixtureSessionId(8);
const write = (home: string, rel: string, v: object): void => {
  fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
  fs.writeFileSync(path.join(home, rel), JSON.stringify(v));
};

describe('opencode source: never blocks on a FIFO, socket or device', () => {
  const cleanups: Array<() => void> = [];
  after(() => { for (const c of cleanups) c(); });
  const newHome = (): string => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-oc-special-'));
    const unblocker = startFifoUnblocker(home, UNBLOCK_MS);
    cleanups.push(() => { unblocker.stop(); fs.rmSync(home, { recursive: true, force: true }); });
    return home;
  };
  const list = async (home: string) => {
    const source = createOpenCodeSource({ home, env: {}, proc: createFakeProc(), http: { view: async () => null, abort: async () => false, prompt: async () => false } });
    const { value, ms } = await timed(() => source.list());
    assert.ok(ms < UNBLOCK_MS / 2, `list() took ${Math.round(ms)} ms`);
    return { ids: value.map((s) => s.id), d: source.diagnostics() };
  };

  for (const kind of SPECIAL_KINDS) {
    it(`a ${kind} as the store, a session record or a message record is skipped promptly and counted`, async () => {
      const home = newHome();
      makeSpecialFile(path.join(home, 'opencode.db'), kind);
      write(home, `storage/session/proj/${LEGACY}.json`, { id: LEGACY, directory: '/old', title: 'Old one', time: { created: 1, updated: 2 } });
      write(home, `storage/message/${LEGACY}/msg_01.json`, { role: 'user', time: { created: 1 } });
      makeSpecialFile(path.join(home, 'storage', 'message', LEGACY, 'msg_02.json'), kind);
      makeSpecialFile(path.join(home, 'storage', 'session', 'proj', `${BAD}.json`), kind);
      const { ids, d } = await list(home);
      assert.deepEqual(ids, [LEGACY]);
      assert.equal(d.notRegularFiles, 3, `store, session record, message record: ${d.errors.join('; ')}`);
    });

    it(`a ${kind} beside a real store (its -shm) keeps the store from being opened, promptly, and is counted`, async () => {
      const home = newHome();
      const st = createFixtureStore(home);
      st.addSession({ id: BAD, directory: '/p', title: 'in the store', createdMs: 1 });
      st.addMessage(BAD, 'msg_1', 1, userMessage(1));
      st.close();
      for (const side of ['-wal', '-shm']) fs.rmSync(`${st.dbPath}${side}`, { force: true });
      makeSpecialFile(`${st.dbPath}-shm`, kind);
      const { ids, d } = await list(home);
      assert.deepEqual(ids, []);
      assert.equal(d.notRegularFiles, 1);
    });
  }
});
