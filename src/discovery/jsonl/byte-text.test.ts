// The folds' byte-range text is what Buffer#toString gives for the same range: latin1 a character per
// byte, UTF-8 with multi-byte characters, a range that cuts one, and invalid bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { latin1Text, utf8Text } from './byte-text.ts';

test('latin1Text and utf8Text equal toString on every range of mixed bytes', () => {
  const buf = Buffer.concat([
    Buffer.from('{"timestamp":"2026-12-01T10:00:00.000Z","type":"x","text":"h\u00e9llo \u2014 \ud83d\ude00"}', 'utf8'),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x00, 0x7f, 0xe2, 0x82]),
  ]);
  for (let start = 0; start <= buf.length; start++) {
    for (let end = start; end <= buf.length; end++) {
      assert.equal(latin1Text(buf, start, end), buf.toString('latin1', start, end), `latin1 ${start}..${end}`);
      assert.equal(utf8Text(buf, start, end), buf.toString('utf8', start, end), `utf8 ${start}..${end}`);
    }
  }
});

test('a view into a larger buffer reads its own bytes', () => {
  const whole = Buffer.from('xxxx{"call_id":"call_\u00e9"}yyyy', 'utf8');
  const view = whole.subarray(4, whole.length - 4);
  assert.equal(utf8Text(view, 0, view.length), view.toString('utf8'));
  assert.equal(latin1Text(view, 2, 9), view.toString('latin1', 2, 9));
});
