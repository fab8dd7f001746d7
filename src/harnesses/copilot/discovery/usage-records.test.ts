import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createFakeProc } from '../../../../test/fakes/fake-proc.ts';
import { createCopilotSource } from './source.ts';
import { copySession, FIXTURES, tempHome } from './copilot-fixtures.test-support.ts';
import { assertRecordsMatchSessions } from '../../../usage/records-match-sessions.test-support.ts';

describe('copilot usage records', () => {
  it('real session folders (a /fork among them): the records of each session add up to its tokens, the fork\'s copies stay the parent\'s', async () => {
    const { home, cleanup } = tempHome();
    try {
      for (const id of readdirSync(join(FIXTURES, 'session-state'))) copySession(home, id);
      const sessions = await assertRecordsMatchSessions((index) => createCopilotSource({ home, proc: createFakeProc(), index }).list());
      assert.ok(sessions.some((s) => s.forkedFrom) && sessions.some((s) => s.tokens.output > 0));
    } finally {
      cleanup();
    }
  });
});
