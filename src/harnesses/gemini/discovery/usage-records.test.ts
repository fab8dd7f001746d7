import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createGeminiSource } from './source.ts';
import { tempGeminiHome } from './gemini-fixtures.test-support.ts';
import { assertRecordsMatchSessions } from '../../../usage/records-match-sessions.test-support.ts';

describe('gemini usage records', () => {
  it('real chat files (a resume\'s second file, a reply written twice): the records of each session add up to its tokens', async () => {
    const h = tempGeminiHome();
    try {
      const sessions = await assertRecordsMatchSessions((index) => createGeminiSource({ home: h.home, proc: createFakeProc(), index, sightings: { of: () => [] } }).list());
      assert.ok(sessions.length >= 3 && sessions.every((s) => s.tokens.input > 0));
    } finally {
      h.cleanup();
    }
  });
});
