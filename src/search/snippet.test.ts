import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { markSnippet } from './snippet.ts';

describe('search snippets', () => {
  it('one line of plain text with the ranges that matched', () => {
    const r = markSnippet('fix the\n\n \u0001flaky\u0002  \u0001login\u0002 test');
    assert.equal(r.snippet, 'fix the flaky login test');
    assert.deepEqual(r.marks.map(([s, e]) => r.snippet.slice(s, e)), ['flaky', 'login']);
    assert.deepEqual(markSnippet('\u0001a\u0002').marks, [[0, 1]]);
  });
});
