import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPrompt, excerpt, MAX_PROMPT_BYTES } from './text.ts';

test('a prompt is kept verbatim: shell syntax, quotes, tabs, newlines and any script are just text', () => {
  const text = "$(touch x) `id` 'q' \"d\" | & ; \\\n\tnext line ünï ✓ 🙂";
  assert.deepEqual(checkPrompt(text), { ok: true, text, bytes: new TextEncoder().encode(text).byteLength });
});

test('line ends are normalised to \\n', () => {
  const r = checkPrompt('a\r\nb\rc\n');
  assert.equal(r.ok && r.text, 'a\nb\nc\n');
});

test('empty, blank and non-string texts are 400 invalid_body', () => {
  for (const v of ['', '   \n\t', undefined, null, 42, ['x']]) {
    const r = checkPrompt(v);
    assert.equal(r.ok ? 'ok' : r.code, 'invalid_body', JSON.stringify(v));
  }
});

test('control characters other than tab and newline are refused (ESC would end a bracketed paste and start keys)', () => {
  for (const c of ['\u001b[201~', '\u0003', '\u0000', '\u007f', '\u009b']) {
    const r = checkPrompt(`hello ${c} world`);
    assert.equal(r.ok ? 'ok' : r.code, 'invalid_body', JSON.stringify(c));
  }
});

test('100 KiB is the limit, counted in UTF-8 bytes: one byte more is 413 payload_too_large', () => {
  assert.equal(checkPrompt('a'.repeat(MAX_PROMPT_BYTES)).ok, true);
  const over = checkPrompt('a'.repeat(MAX_PROMPT_BYTES + 1));
  assert.equal(over.ok ? 'ok' : over.code, 'payload_too_large');
  // 'é' is two bytes: half as many characters reach the limit.
  const wide = checkPrompt('é'.repeat(MAX_PROMPT_BYTES / 2 + 1));
  assert.equal(wide.ok ? 'ok' : wide.code, 'payload_too_large');
});

test('the log keeps one short line of the prompt, never all of it', () => {
  assert.equal(excerpt('fix\n  the   bug'), 'fix the bug');
  const long = excerpt('x'.repeat(500));
  assert.equal([...long].length, 80);
  assert.ok(long.endsWith('…'));
});
