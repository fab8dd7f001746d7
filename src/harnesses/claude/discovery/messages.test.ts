import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { pageConversation } from '../../../discovery/jsonl/index.ts';
import { conversationOf } from './messages.ts';
import { scanTranscripts, MAX_LINE_BYTES } from './transcript-scan.ts';
import type { TranscriptScanCounters } from './transcript-scan.ts';
import { ignoreTranscriptLine } from './transcript.ts';
import { assistantLine, metaLine, SID, tempHome, toolResultLine, userLine, writeTranscript } from './claude-fixtures.test-support.ts';

const counters = (): TranscriptScanCounters => ({ filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] });

const toolUse = (name: string, input: Record<string, unknown>): string => JSON.stringify({
  parentUuid: 'u1', isSidechain: false, type: 'assistant', timestamp: '2026-11-30T06:53:00.000Z', sessionId: SID,
  message: { id: 'm-tool', role: 'assistant', model: 'claude-sonnet-4-5', content: [
    { type: 'thinking', thinking: 'secret reasoning words' },
    { type: 'tool_use', id: 'toolu_2', name, input },
  ], usage: { input_tokens: 1, output_tokens: 1 } },
});

describe('claude conversation messages (search and reading)', () => {
  const homes: string[] = [];
  after(() => { for (const h of homes) fs.rmSync(h, { recursive: true, force: true }); });

  it('maps prompts, replies, tool calls (name and paths), tool results and generated prompts to roles', () => {
    assert.deepEqual(conversationOf(JSON.parse(userLine('fix the flaky login test'))), [{ role: 'user', text: 'fix the flaky login test', at: '2026-11-30T06:52:53.501Z' }]);
    assert.deepEqual(conversationOf(JSON.parse(assistantLine({ id: 'm1' }))).map((m) => m.role), ['assistant']);
    const call = conversationOf(JSON.parse(toolUse('Edit', { file_path: '/repo/src/billing.ts', old_string: 'not indexed', new_string: 'nor this' })));
    assert.deepEqual(call.map((m) => [m.role, m.text]), [['tool-call', 'Edit /repo/src/billing.ts']], 'thinking and edit bodies are not messages');
    assert.deepEqual(conversationOf(JSON.parse(toolUse('Bash', { command: 'npm test -- login' })))[0]?.text, 'Bash npm test -- login');
    assert.deepEqual(conversationOf(JSON.parse(toolResultLine('PASS login.test.ts'))).map((m) => [m.role, m.text]), [['tool-result', 'PASS login.test.ts']]);
    assert.equal(conversationOf(JSON.parse(userLine('<command-name>/clear</command-name>')))[0]?.role, 'system');
    assert.deepEqual(conversationOf({ ...JSON.parse(userLine('from a subagent')), isSidechain: true }), []);
    assert.deepEqual(conversationOf(JSON.parse(metaLine('custom-title', { customTitle: 'x' }))), []);
  });

  it('the index gets only new messages on append, all of them again after a rewrite, and none of a removed file', () => {
    const home = tempHome();
    homes.push(home);
    const projects = path.join(home, 'projects');
    const index = createMemoryTranscriptIndex();
    const file = writeTranscript(home, SID, [userLine('where is billing'), assistantLine({ id: 'm1' })]);
    scanTranscripts({ projectsDir: projects, index }, counters());
    assert.deepEqual(index.messages(file).map((m) => m.text), ['where is billing', 'hi from fake model']);

    fs.appendFileSync(file, toolUse('Read', { file_path: '/repo/billing.ts' }) + '\n');
    scanTranscripts({ projectsDir: projects, index }, counters());
    assert.deepEqual(index.messages(file).map((m) => m.role), ['user', 'assistant', 'tool-call']);

    fs.writeFileSync(file, userLine('rewritten') + '\n');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    scanTranscripts({ projectsDir: projects, index }, counters());
    assert.deepEqual(index.messages(file).map((m) => m.text), ['rewritten'], 'stale messages gone');

    fs.rmSync(file);
    scanTranscripts({ projectsDir: projects, index }, counters());
    assert.deepEqual(index.messages(file), []);
  });

  it('a record longer than the line bound is skipped and counted; reading pages find messages at their indexed positions', () => {
    const home = tempHome();
    homes.push(home);
    const projects = path.join(home, 'projects');
    const index = createMemoryTranscriptIndex();
    const huge = userLine('x'.repeat(2048));
    const file = writeTranscript(home, SID, [userLine('one'), huge, assistantLine({ id: 'm1' }), toolResultLine('out'), userLine('four')]);
    const c = counters();
    scanTranscripts({ projectsDir: projects, index, maxLineBytes: 1024 }, c);
    assert.equal(c.linesSkipped, 1);
    const indexed = index.messages(file);
    assert.deepEqual(indexed.map((m) => m.text), ['one', 'hi from fake model', 'out', 'four']);
    const page = pageConversation(file, { ignore: ignoreTranscriptLine, maxLineBytes: 1024 }, conversationOf, 1, 2);
    assert.deepEqual(page.messages.map((m) => [m.position, m.text]), [[1, 'hi from fake model'], [2, 'out']]);
    assert.equal(page.total, 4);
    assert.equal(page.next, 3);
    assert.equal(pageConversation(file, { ignore: ignoreTranscriptLine, maxLineBytes: MAX_LINE_BYTES }, conversationOf, 4, 10).next, null);
  });
});
