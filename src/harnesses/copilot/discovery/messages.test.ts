import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { copilotMessagesOf } from './messages.ts';
import { pageEvents, readEvents } from './events-scan.ts';
import { copySession, PRINT_ID, tempHome } from './copilot-fixtures.test-support.ts';

const counters = () => ({ linesParsed: 0, linesSkipped: 0, filesSkipped: 0, notRegular: 0, errors: [] as string[] });

describe('copilot conversation messages (search and reading), on a real `copilot -p` session', () => {
  it('indexes the prompt, the reply, the tool call and (as tool-result) its output; reading matches the positions', () => {
    const t = tempHome();
    try {
      const dir = copySession(t.home, PRINT_ID);
      const file = path.join(dir, 'events.jsonl');
      const st = fs.statSync(file);
      const index = createMemoryTranscriptIndex();
      readEvents({ path: file, size: st.size, mtimeMs: st.mtimeMs }, index, counters());
      const indexed = index.messages(file);
      assert.ok(indexed.some((m) => m.role === 'user'), JSON.stringify(indexed));
      assert.ok(indexed.some((m) => m.role === 'assistant'));
      assert.ok(indexed.some((m) => m.role === 'tool-call'));
      const page = pageEvents(file, 0, 100);
      assert.deepEqual(page.messages.map((m) => m.text), indexed.map((m) => m.text));
      assert.deepEqual(page.messages.map((m) => m.position), indexed.map((_, i) => i));
      // The system prompt and hook events are no messages.
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string });
      for (const l of lines.filter((x) => x.type === 'system.message' || x.type.startsWith('hook.'))) assert.deepEqual(copilotMessagesOf(l), []);
    } finally {
      t.cleanup();
    }
  });
});
