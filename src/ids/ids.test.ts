import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPrefixedId, prefixedIdPattern } from './index.ts';

test('prefixed ids sort by creation time, are unique and match their own pattern only', () => {
  const a = newPrefixedId('pag', 1_700_000_000_000);
  const b = newPrefixedId('pag', 1_700_000_000_001);
  assert.ok(a < b);
  assert.notEqual(newPrefixedId('pag', 5), newPrefixedId('pag', 5));
  assert.match(a, prefixedIdPattern('pag'));
  assert.doesNotMatch(a, prefixedIdPattern('gol'));
  assert.doesNotMatch(`${a}\n`, prefixedIdPattern('pag'));
});
