import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { geminiHeadless, geminiResumeArgv } from './commands.ts';
import { tempGeminiHome, FIXTURES, PRINTED, PRINTED_FILES, SUMMARISED_FILE } from './discovery/gemini-fixtures.test-support.ts';

/** What `gemini -o json --prompt=…` printed (0.61.0, against the fake model). */
const OUTPUT = fs.readFileSync(path.join(FIXTURES, 'print-json-output.txt'), 'utf8');

test('headless: the real -o json output reads as one turn with its tokens and model', () => {
  assert.deepEqual(geminiHeadless.parse(OUTPUT), { sessionId: '55555555-5555-4555-8555-555555555555', text: 'hi from fake model', tokens: 110, model: 'gemini-fake', error: null });
  assert.deepEqual(geminiHeadless.parse(`Warning: 256-color support not detected.\n${OUTPUT}`).sessionId, '55555555-5555-4555-8555-555555555555', 'a line before the object');
  const failed = geminiHeadless.parse(JSON.stringify({ session_id: 'x', error: { type: 'FatalAuthenticationError', message: 'no key', code: 41 } }, null, 2));
  assert.equal(failed.text, null);
  assert.equal(failed.error, 'gemini: no key');
  assert.equal(geminiHeadless.parse('').error, 'gemini printed no JSON result');
});

test('headless commands: the prompt is one --prompt= argument, even when it starts with a dash', () => {
  assert.deepEqual(geminiHeadless.command({ prompt: '-rf everything', newId: PRINTED }).argv, ['gemini', '-o', 'json', '--session-id', PRINTED, '--prompt=-rf everything']);
  assert.deepEqual(geminiHeadless.command({ prompt: 'go on', sessionId: PRINTED, model: 'gemini-2.5-pro' }).argv, ['gemini', '-o', 'json', '--resume', PRINTED, '-m', 'gemini-2.5-pro', '--prompt=go on']);
  assert.deepEqual(geminiHeadless.continueWithHooks?.(PRINTED, 'next', () => '').argv, ['gemini', '-o', 'json', '--resume', PRINTED, '--prompt=next']);
  assert.deepEqual(geminiResumeArgv(PRINTED.toUpperCase()), ['gemini', '--resume', PRINTED]);
  assert.equal(geminiResumeArgv('latest'), null);
});

test('the auditor: no extensions, instructions and report on stdin, and its chat file removed afterwards', () => {
  const h = tempGeminiHome([...PRINTED_FILES, SUMMARISED_FILE]);
  try {
    const cmd = geminiHeadless.audit!({ system: 'You judge.', prompt: 'Report: done', model: 'gemini-2.5-flash' });
    const at = cmd.argv.indexOf('--session-id');
    const id = cmd.argv[at + 1]!;
    assert.deepEqual(cmd.argv.slice(0, 5), ['gemini', '-o', 'json', '-e', 'none']);
    assert.deepEqual(cmd.argv.slice(-3), ['-m', 'gemini-2.5-flash', '--prompt=']);
    assert.equal(cmd.stdin, 'You judge.\n\nReport: done');
    // What the audit run wrote, and a file that only shares the 8-digit name prefix.
    const mine = path.join(h.chats, `session-2026-12-01T14-00-${id.slice(0, 8)}.jsonl`);
    const other = path.join(h.chats, `session-2026-12-01T14-01-${id.slice(0, 8)}.jsonl`);
    fs.writeFileSync(mine, `${JSON.stringify({ sessionId: id, kind: 'main' })}\n`);
    fs.writeFileSync(other, `${JSON.stringify({ sessionId: `${id.slice(0, 8)}-0000-4000-8000-000000000000`, kind: 'main' })}\n`);
    const before = fs.readdirSync(h.chats).length;
    const out = { sessionId: id, text: 'x', tokens: 1, model: null, error: null };
    geminiHeadless.finish!({ command: cmd, output: out, env: { HOME: path.dirname(h.home) }, audit: false });
    assert.equal(fs.existsSync(mine), true, 'a goal turn keeps its session');
    assert.deepEqual(geminiHeadless.finish!({ command: cmd, output: out, env: { HOME: path.dirname(h.home) }, audit: true }), out);
    assert.equal(fs.existsSync(mine), false, 'the audit left no session behind');
    assert.equal(fs.readdirSync(h.chats).length, before - 1, 'nothing else was touched');
    geminiHeadless.finish!({ command: cmd, output: out, env: { HOME: '/nonexistent' }, audit: true });
  } finally {
    h.cleanup();
  }
});
