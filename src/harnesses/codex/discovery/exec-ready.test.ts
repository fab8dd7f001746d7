import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { execPromptRecorded, promptAfterTaskStart } from './exec-ready.ts';
import { rec } from './rollout-fixtures.test-support.ts';

const TURN2 = '01a22b39-94c5-79f0-b8d5-b29a0d361cf3';
/** An exec's records in the order 0.171.0 writes them, up to its prompt. */
const start = [rec.meta(), rec.taskStarted(), rec.developer(), rec.userMessage('<environment_context>'), rec.worldState(), rec.turnContext()];
const buf = (lines: string[]): Buffer => Buffer.from(lines.join('\n') + '\n');

describe('codex exec-ready', () => {
  it('false until the turn started records its prompt; true from then on', () => {
    assert.equal(promptAfterTaskStart(buf([rec.meta()]), false), false, 'no turn yet');
    assert.equal(promptAfterTaskStart(buf(start), false), false, 'turn started, prompt not recorded (the environment message is not it)');
    assert.equal(promptAfterTaskStart(buf([...start, rec.userMessage('hi'), rec.userItem('hi')]), false), true);
    assert.equal(promptAfterTaskStart(buf([...start, rec.userItem('hi'), rec.agentItem('yo')]), false), true);
  });

  it('a resumed thread: an earlier turn\'s prompt does not count for the new turn', () => {
    const first = [...start, rec.userItem('first'), rec.agentItem('done')];
    assert.equal(promptAfterTaskStart(buf([...first, rec.taskStarted(TURN2)]), false), false);
    assert.equal(promptAfterTaskStart(buf([...first, rec.taskStarted(TURN2), rec.userItem('second', TURN2)]), false), true);
  });

  it('an older build\'s user_message event counts; a quoted one inside a string does not', () => {
    const older = JSON.stringify({ timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message: 'hi' } });
    assert.equal(promptAfterTaskStart(buf([...start, older]), false), true);
    const quoted = rec.agentItem('{"type":"user_message"} and "item":{"type":"UserMessage"}');
    assert.equal(promptAfterTaskStart(buf([...start, quoted]), false), false);
  });

  it('a tail cut from a larger file with no task_started is a turn well under way', () => {
    assert.equal(promptAfterTaskStart(buf([rec.agentItem('x')]), true), true);
    assert.equal(promptAfterTaskStart(buf([rec.agentItem('x')]), false), false);
  });

  it('reads the file: missing is false, and a 300 KiB turn is read from its tail', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muster-exec-ready-'));
    try {
      const f = path.join(dir, 'rollout.jsonl');
      assert.equal(execPromptRecorded(f), false);
      fs.writeFileSync(f, buf(start));
      assert.equal(execPromptRecorded(f), false);
      fs.appendFileSync(f, buf([rec.userItem('go')]));
      assert.equal(execPromptRecorded(f), true);
      fs.appendFileSync(f, buf([rec.taskStarted(TURN2), ...Array.from({ length: 60 }, () => rec.agentItem('z'.repeat(5000)))]));
      assert.equal(execPromptRecorded(f), true, 'task_started fell out of the tail');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
