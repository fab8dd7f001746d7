import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryTranscriptIndex } from '../../../discovery/contract.ts';
import { rolloutMessagesOf } from './rollout-messages.ts';
import { pageRollout, readRollout } from './rollout-file.ts';
import { execRollout, rec, TID } from './rollout-fixtures.test-support.ts';

const counters = () => ({ filesScanned: 0, filesSkipped: 0, linesParsed: 0, linesSkipped: 0, notRegular: 0, errors: [] as string[] });

describe('codex conversation messages (search and reading)', () => {
  const dirs: string[] = [];
  after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

  it('maps prompts and replies from completed items and tool calls from response items; instructions, outputs and commands give none', () => {
    const roles = execRollout(TID, '/home/dev/project', 'fix the migration').flatMap((l) => rolloutMessagesOf(JSON.parse(l)));
    assert.deepEqual(roles.map((m) => [m.role, m.text]), [['user', 'fix the migration'], ['assistant', 'hi']]);
    assert.deepEqual(rolloutMessagesOf(JSON.parse(rec.functionCall('c1', 'exec_command'))).map((m) => [m.role, m.text]), [['tool-call', 'exec_command sleep 1']]);
    assert.deepEqual(rolloutMessagesOf(JSON.parse(rec.functionCall('c1', 'harness_status', 'mcp__harness')))[0]?.text, 'mcp__harness__harness_status sleep 1');
    const patch = JSON.stringify({ timestamp: '2026-11-30T07:00:00Z', type: 'response_item', payload: { type: 'custom_tool_call', name: 'apply_patch', call_id: 'c2', input: '*** Begin Patch\n*** Update File: src/billing.ts\n@@\n-a\n+b\n*** End Patch' } });
    assert.equal(rolloutMessagesOf(JSON.parse(patch))[0]?.text, 'apply_patch src/billing.ts');
    for (const l of [rec.functionOutput('c1'), rec.commandItem(), rec.developer(), rec.userMessage('dup of the item')]) assert.deepEqual(rolloutMessagesOf(JSON.parse(l)), []);
  });

  it('indexes new messages on append with the thread id, and reading finds them at the same positions', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-codex-msg-'));
    dirs.push(dir);
    const file = path.join(dir, `rollout-2026-11-30T06-52-03-${TID}.jsonl`);
    fs.writeFileSync(file, execRollout(TID, '/p', 'first prompt').map((l) => l + '\n').join(''));
    const index = createMemoryTranscriptIndex();
    readRollout(file, index, counters());
    fs.appendFileSync(file, [rec.userItem('second prompt'), rec.functionCall('c9'), rec.functionOutput('c9'), rec.agentItem('second answer')].map((l) => l + '\n').join(''));
    readRollout(file, index, counters());
    const indexed = index.messages(file);
    assert.deepEqual(indexed.map((m) => m.text), ['first prompt', 'hi', 'second prompt', 'exec_command sleep 1', 'second answer']);
    const page = pageRollout(file, 2, 2);
    assert.deepEqual(page.messages.map((m) => [m.position, m.role, m.text]), [[2, 'user', 'second prompt'], [3, 'tool-call', 'exec_command sleep 1']]);
    assert.equal(page.total, 5);
  });
});
