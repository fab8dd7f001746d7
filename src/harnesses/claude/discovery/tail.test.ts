// The transcript tail for the board: last messages as text, from the end of the file only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { assistantLine, SID, tempHome, toolResultLine, userLine, writeTranscript } from './claude-fixtures.test-support.ts';
import { readClaudeTail, messagesOf } from './tail.ts';
import { createClaudeSource } from './source.ts';

test('the last N messages, oldest first, with roles, text and times; tool calls summarised', () => {
  const home = tempHome();
  const lines = [userLine('first <b>prompt</b>'), assistantLine({ id: 'm1' }), assistantLine({ id: 'm2', content: 'tool_use' }), toolResultLine('hi\n')];
  writeTranscript(home, SID, lines);
  const all = readClaudeTail(path.join(home, 'projects'), SID, 10);
  assert.deepEqual(all.map((m) => [m.role, m.text]), [['user', 'first <b>prompt</b>'], ['assistant', 'hi from fake model'], ['tool', '→ Bash: echo hi'], ['tool', 'hi']]);
  assert.equal(all[0]?.at, '2026-11-30T06:52:53.501Z');
  assert.deepEqual(readClaudeTail(path.join(home, 'projects'), SID, 2).map((m) => m.role), ['tool', 'tool']);
  assert.deepEqual(readClaudeTail(path.join(home, 'projects'), '2e0e7aa2-3d62-481c-8a50-166cd0ac192f', 5), []);
  fs.rmSync(home, { recursive: true, force: true });
});

test('a big transcript: the window widens until enough messages are found', () => {
  const home = tempHome();
  const filler = toolResultLine('x'.repeat(300 * 1024));
  writeTranscript(home, SID, [userLine('early question'), filler, assistantLine({ id: 'late' })]);
  const got = readClaudeTail(path.join(home, 'projects'), SID, 3);
  assert.deepEqual(got.map((m) => m.role), ['user', 'tool', 'assistant']);
  assert.ok((got[1]?.text.length ?? 0) <= 2000, 'long text clipped');
  fs.rmSync(home, { recursive: true, force: true });
});

test('sidechain and meta records are not messages; the source exposes tail()', async () => {
  assert.deepEqual(messagesOf({ type: 'user', isSidechain: true, message: { content: 'x' } }), []);
  assert.deepEqual(messagesOf({ type: 'summary' }), []);
  const home = tempHome();
  writeTranscript(home, SID, [userLine('hello')]);
  const src = createClaudeSource({ home });
  assert.deepEqual((await src.tail?.(SID, 5))?.map((m) => m.text), ['hello']);
  await assert.rejects(async () => src.tail?.('nope', 5));
  fs.rmSync(home, { recursive: true, force: true });
});
