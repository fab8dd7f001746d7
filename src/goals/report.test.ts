// The auditor judges the last non-empty assistant message, never a tool result.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { finalReport } from './report.ts';

it('takes the last non-empty assistant text, skipping tool results and empty messages', () => {
  assert.equal(finalReport([
    { role: 'user', text: 'do it' },
    { role: 'assistant', text: 'Done: all tests pass.' },
    { role: 'tool', text: 'PASS 12 tests' },
    { role: 'assistant', text: '  ' },
  ]), 'Done: all tests pass.');
});

it('a turn that ends on a tool result with no assistant text has no report', () => {
  assert.equal(finalReport([{ role: 'user', text: 'go' }, { role: 'tool', text: 'ALL DONE' }]), null);
  assert.equal(finalReport([]), null);
});

it('never reaches back past the turn\'s own prompt into an earlier turn', () => {
  assert.equal(finalReport([{ role: 'assistant', text: 'old turn report' }, { role: 'user', text: 'next' }, { role: 'tool', text: 'x' }]), null);
});
