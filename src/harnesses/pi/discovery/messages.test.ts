import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { piMessagesOf } from './messages.ts';
import { pageSessionFile, scanTranscripts } from './transcript-scan.ts';
import { assistant, header, jsonl, ompTitle, sessionFileName, toolResult, user, writeSession } from './fixture-records.test-support.ts';

const ID = '01a22b3e-7108-72cf-96ba-1191d1508086';
const TS = '2026-11-30T06:57:22.185Z';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-pi-messages-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('pi/omp conversation messages (search and reading)', () => {
  it('maps prompts, replies and tool calls (name and paths or command); headers, titles and tool results give none', () => {
    const reply = assistant({ ts: TS, text: 'I will read billing.ts', calls: [{ id: 'c1', name: 'read', arguments: { path: 'src/billing.ts' } }, { id: 'c2', name: 'bash', arguments: { command: 'npm test' } }] });
    assert.deepEqual(piMessagesOf(reply).map((m) => [m.role, m.text]), [['assistant', 'I will read billing.ts'], ['tool-call', 'read src/billing.ts'], ['tool-call', 'bash npm test']]);
    assert.deepEqual(piMessagesOf(user('fix the migration', TS)), [{ role: 'user', text: 'fix the migration', at: TS }]);
    for (const r of [header(ID, '/p', TS), ompTitle('t', TS), toolResult('c1', 'output', TS)]) assert.deepEqual(piMessagesOf(r), []);
  });

  it('indexes new messages on append under the session id; reading pages match the positions', () => {
    const sessionsDir = path.join(tmp, 'sessions');
    const dir = path.join(sessionsDir, '--home-dev-p--');
    fs.mkdirSync(dir, { recursive: true });
    const index = createMemoryTranscriptIndex();
    const file = writeSession(path.join(dir, sessionFileName(ID, TS)), [header(ID, '/home/dev/p', TS), user('first prompt', TS), assistant({ ts: TS, text: 'first answer' })]);
    scanTranscripts({ harness: 'pi', sessionsDir, index });
    fs.appendFileSync(file, jsonl([assistant({ ts: TS, calls: [{ id: 'c1', name: 'bash', arguments: { command: 'ls' } }] }), toolResult('c1', 'big output', TS), user('second prompt', TS)]));
    scanTranscripts({ harness: 'pi', sessionsDir, index });
    assert.deepEqual(index.messages(file).map((m) => m.text), ['first prompt', 'first answer', 'bash ls', 'second prompt']);
    const page = pageSessionFile(file, 2, 5);
    assert.deepEqual(page.messages.map((m) => [m.position, m.text]), [[2, 'bash ls'], [3, 'second prompt']]);
    assert.equal(page.next, null);
  });
});
