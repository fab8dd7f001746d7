import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copilot } from './index.ts';
import { copySession, FIXTURES, sessionDir, tempHome, TUI_ID } from './discovery/copilot-fixtures.test-support.ts';

/** `copilot --prompt='RUNCMD: echo out > o.txt' --output-format json --allow-all-tools --session-id <RUN_ID>`, stdout as printed. */
const RUN_ID = '77777777-3333-4444-8555-666666666666';
const STDOUT = readFileSync(join(FIXTURES, 'print-output.jsonl'), 'utf8');
const h = copilot.headless;

test('a turn: the prompt as one --prompt= value, a new session named up front, the next turn resumes it', () => {
  assert.deepEqual(h.command({ prompt: '-x "y"', newId: RUN_ID }), { argv: ['copilot', '--prompt=-x "y"', '--output-format', 'json', '--session-id', RUN_ID], sessionId: RUN_ID });
  assert.deepEqual(h.command({ prompt: 'go on', sessionId: RUN_ID, model: 'gpt-5' }).argv, ['copilot', '--prompt=go on', '--output-format', 'json', '--resume', RUN_ID, '--model', 'gpt-5']);
});

test('parse: real JSON output gives the session, the final reply (not the tool call\'s), the model; no tokens on stdout', () => {
  assert.deepEqual(h.parse(STDOUT), { sessionId: RUN_ID, text: 'tool done', tokens: 0, model: 'fake-model', error: null });
  assert.equal(h.parse('').error, 'copilot printed no result');
  assert.match(String(h.parse('{"type":"result","sessionId":"x","exitCode":1}').error), /exited 1/);
});

test('finish reads the run\'s tokens from its events.jsonl: only the records after the last start or resume', () => {
  const { home, cleanup } = tempHome();
  try {
    copySession(home, RUN_ID);
    const env = { HOME: '/nowhere', COPILOT_HOME: home };
    const run = { command: h.command({ prompt: 'x', newId: RUN_ID }), output: h.parse(STDOUT), env, audit: false };
    assert.equal(h.finish?.(run).tokens, 220, 'two model calls of 100 in + 10 out');
    assert.ok(existsSync(sessionDir(home, RUN_ID)), 'a goal turn keeps its session');
    copySession(home, TUI_ID); // started, /exit, resumed with one more prompt
    assert.equal(h.finish?.({ ...run, output: { ...run.output, sessionId: TUI_ID } }).tokens, 110, 'the resumed run alone');
  } finally {
    cleanup();
  }
});

test('the auditor: no tools, the instructions and the report on stdin, and finish removes the session it created, only that one', () => {
  const a = h.audit!({ system: 'judge strictly', prompt: 'report: done', model: 'gpt-5' });
  const id = a.sessionId!;
  assert.deepEqual(a.argv, ['copilot', '--output-format', 'json', '--session-id', id, '--available-tools=none', '--no-custom-instructions', '--disable-builtin-mcps', '--no-ask-user', '--model', 'gpt-5']);
  assert.equal(a.stdin, 'judge strictly\n\nreport: done');
  const { home, cleanup } = tempHome();
  try {
    const dir = sessionDir(home, id);
    mkdirSync(dir);
    writeFileSync(join(dir, 'workspace.yaml'), `id: ${id}\n`);
    mkdirSync(join(home, 'session-state', '.session-operation-locks'));
    const lock = join(home, 'session-state', '.session-operation-locks', `${id}.lock`);
    writeFileSync(lock, '');
    copySession(home, RUN_ID);
    const env = { COPILOT_HOME: home };
    // Output naming another session (it never does) removes nothing.
    h.finish?.({ command: a, output: { ...h.parse(STDOUT) }, env, audit: true });
    assert.ok(existsSync(dir) && existsSync(sessionDir(home, RUN_ID)));
    // A timed-out run printed nothing: the id given up front still finds its folder.
    h.finish?.({ command: a, output: h.parse(''), env, audit: true });
    assert.ok(!existsSync(dir) && !existsSync(lock), 'the auditor left no session behind');
    assert.ok(existsSync(sessionDir(home, RUN_ID)));
  } finally {
    cleanup();
  }
});
