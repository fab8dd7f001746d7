import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { pageConversation } from '../../../discovery/jsonl/index.ts';
import type { TranscriptMessage } from '../../../core/transcript-message.ts';
import { conversationOf } from './messages.ts';
import { foldClaudeTask, MAX_LINE_BYTES, pageClaudeTranscript } from './transcript-scan.ts';
import { ignoreTranscriptLine } from './transcript.ts';
import { assistantLine, metaLine, SID, tempHome, toolResultLine, userLine, writeTranscript } from './claude-fixtures.test-support.ts';

const long = (word: string, n: number): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const assistantText = (text: string, id: string): string => {
  const r = JSON.parse(assistantLine({ id })) as { message: { content: unknown[] } };
  r.message.content = [{ type: 'thinking', thinking: long('hidden', 300), signature: 'S'.repeat(900) }, { type: 'text', text }];
  return JSON.stringify(r);
};
const toolUse = (command: string): string => {
  const r = JSON.parse(assistantLine({ id: 'm-tool', content: 'tool_use' })) as { message: { content: { input: unknown }[] } };
  (r.message.content[0] as { input: unknown }).input = { command, description: long('why', 200) };
  return JSON.stringify(r);
};

/** What search indexed before the fold gave messages: a second read, every kept line parsed whole. */
function wholeParse(file: string): TranscriptMessage[] {
  return pageConversation(file, { ignore: ignoreTranscriptLine, maxLineBytes: MAX_LINE_BYTES }, conversationOf, 0, 1e9).messages.map(({ position: _, ...m }) => m);
}

function folded(file: string, toolOutput?: boolean): readonly TranscriptMessage[] {
  const r = foldClaudeTask({ path: file, from: 0, summary: null, bytes: fs.statSync(file).size, messages: true, ...(toolOutput === undefined ? {} : { toolOutput }) });
  assert.ok(r.ok);
  return r.messages?.items ?? [];
}

describe('claude messages read in the discovery fold (one pass)', () => {
  const homes: string[] = [];
  after(() => { for (const h of homes) fs.rmSync(h, { recursive: true, force: true }); });
  const home = tempHome();
  homes.push(home);
  const lines = [
    userLine('fix the flaky login test'),
    metaLine('api-request', { body: long('req', 500) }),
    JSON.stringify({ parentUuid: null, isSidechain: false, attachment: { type: 'skill_listing', content: long('skill', 400) }, type: 'attachment', sessionId: SID }),
    toolUse('npm test -- login'),
    toolUse(`grep -rn ${long('pattern', 80)}`),
    toolResultLine(long('output', 900)),
    toolResultLine(' '.repeat(3000)),
    assistantText(long('answer', 400), 'm2'),
    assistantText(' '.repeat(1500), 'm3'),
    userLine(`<command-name>/clear</command-name> ${long('arg', 300)}`),
    userLine(long('prompt', 400)),
    assistantLine({ id: 'm4' }),
  ];
  const file = writeTranscript(home, SID, lines);

  it('gives what a whole parse of every line gives, long texts included (the count decided on whole texts)', () => {
    const want = wholeParse(file);
    assert.equal(want.length, 9, 'the blank reply gives none');
    assert.equal(want[4]?.text, '(no output)', 'a blank tool output is a message, as an empty one is');
    assert.deepEqual(folded(file), want);
  });

  it('without tool output: the same messages at the same positions, tool results without text', () => {
    const want = wholeParse(file).map((m) => (m.role === 'tool-result' ? { ...m, text: '' } : m));
    assert.deepEqual(folded(file, false), want);
  });

  it('reading pages find every message at the position the index counted', () => {
    const all = pageClaudeTranscript(file, 0, 1000);
    assert.deepEqual(all.messages.map(({ position: _, ...m }) => m), wholeParse(file));
    assert.deepEqual(all.messages.map((m) => m.position), all.messages.map((_, i) => i));
    assert.deepEqual(pageClaudeTranscript(file, 3, 2).messages.map((m) => m.position), [3, 4]);
  });

  it('texts longer than a message keeps: decoded only as far as the clip reads, yet as a whole parse gives them', () => {
    const h = tempHome();
    homes.push(h);
    // Escapes and multi-byte characters land on every cut; leading whitespace longer than what is decoded first.
    const tricky = (n: number): string => Array.from({ length: n }, (_, i) => `l${i} "q" \\ é€😀\t\u0001 `).join('\n');
    const arrayResult = JSON.parse(toolResultLine('x')) as { message: { content: { content: unknown }[] } };
    (arrayResult.message.content[0] as { content: unknown }).content = [{ type: 'text', text: '' }, { type: 'text', text: tricky(4000) }, { type: 'image', source: {} }, { type: 'text', text: 'tail' }];
    const lines = [
      toolResultLine(tricky(9000)),
      toolResultLine(`${' '.repeat(70_000)}late output`),
      toolResultLine('é'.repeat(100_000)), // two bytes a character: the first part decoded holds just what the clip reads
      JSON.stringify(arrayResult),
      toolUse(`${' '.repeat(40_000)}${tricky(3000)}`),
      assistantText(`${tricky(5000)}`, 'm5'),
      userLine(`${'\n'.repeat(80_000)}<command-name>/compact</command-name>`), // blank as far as the clip reads: no message
      userLine(`${' '.repeat(30)}<command-name>/compact</command-name> ${tricky(6000)}`),
      userLine(tricky(6000)),
    ];
    const f = writeTranscript(h, SID, lines);
    const want = wholeParse(f);
    assert.deepEqual(want.map((m) => m.role), ['tool-result', 'tool-result', 'tool-result', 'tool-result', 'tool-call', 'assistant', 'system', 'user']);
    assert.equal(want[1]?.text, '(no output)', 'output past what the clip reads counts as none, as before');
    assert.ok(want.every((m) => m.role === 'tool-call' || m.role === 'tool-result' || m.text.length === 32 * 1024));
    assert.deepEqual(folded(f), want);
    assert.deepEqual(folded(f, false), want.map((m) => (m.role === 'tool-result' ? { ...m, text: '' } : m)));
    assert.deepEqual(pageClaudeTranscript(f, 0, 100).messages.map(({ position: _, ...m }) => m), want);
  });

  it('a line broken only inside a long string keeps its skeleton\'s messages, indexed and read alike', () => {
    const h = tempHome();
    homes.push(h);
    const broken = toolResultLine(long('out', 400)).replace('out10 ', 'out10 \\x');
    const f = writeTranscript(h, SID, [userLine('before'), broken, userLine('after')]);
    const read = pageClaudeTranscript(f, 0, 100).messages;
    assert.deepEqual(read.map((m) => m.role), ['user', 'tool-result', 'user']);
    assert.deepEqual(folded(f).map((m) => m.role), read.map((m) => m.role));
    assert.deepEqual(folded(f, false).map((m) => m.role), read.map((m) => m.role));
  });
});
