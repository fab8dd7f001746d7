// Every place the Gemini source reads — chat files, `.project_root`, `projects.json` — meets a FIFO, a
// socket and a /dev/zero link: list() answers at once and every refused chat file is counted.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { makeSpecialFile, SPECIAL_KINDS, startFifoUnblocker, timed } from '../../../../test/fakes/special-files.ts';
import { createGeminiSource } from './source.ts';
import { PRINTED, PRINTED_FILES, tempGeminiHome } from './gemini-fixtures.test-support.ts';

const UNBLOCK_MS = 2000;

describe('gemini source: never blocks on a FIFO, socket or device', () => {
  const cleanups: Array<() => void> = [];
  after(() => { for (const c of cleanups) c(); });

  for (const kind of SPECIAL_KINDS) {
    it(`a ${kind} in every read location is skipped promptly and counted`, async () => {
      const h = tempGeminiHome(PRINTED_FILES);
      const unblocker = startFifoUnblocker(h.root, UNBLOCK_MS);
      cleanups.push(() => { unblocker.stop(); h.cleanup(); });
      makeSpecialFile(path.join(h.chats, 'session-2026-12-01T13-00-77777777.jsonl'), kind);
      const other = path.join(h.home, 'tmp', 'other');
      makeSpecialFile(path.join(other, '.project_root'), kind);
      makeSpecialFile(path.join(h.home, 'projects.json'), kind);
      fs.mkdirSync(path.join(other, 'chats'));
      fs.copyFileSync(path.join(h.chats, PRINTED_FILES[1]!), path.join(other, 'chats', 'session-2026-12-01T13-01-88888888.jsonl'));
      const source = createGeminiSource({ home: h.home, proc: createFakeProc() });

      const { value, ms } = await timed(() => source.list());
      assert.ok(ms < UNBLOCK_MS / 2, `list() took ${Math.round(ms)} ms`);
      assert.deepEqual(value.map((s) => s.id), [PRINTED]);
      assert.equal(value[0]?.cwd, h.cwd, 'the project whose .project_root is a file');
      const d = source.diagnostics();
      const outside = d.errors.filter((e) => e.includes('leads outside')).length;
      assert.equal(d.notRegularFiles + outside, 1, `the chat file: ${d.errors.join('; ')}`);
    });
  }
});
