import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameJson } from './same-json.ts';

/** The judge sameJson must agree with: the JSON of both, with keys sorted. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : 1))) : x));

const pairs: [string, unknown, unknown][] = [
  ['equal copies', { a: 1, b: 'x', c: [1, { d: null }], e: { f: true } }, { a: 1, b: 'x', c: [1, { d: null }], e: { f: true } }],
  ['keys in another order', { a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 }],
  ['a changed leaf deep down', { a: { b: [1, 2, { c: 'x' }] } }, { a: { b: [1, 2, { c: 'y' }] } }],
  ['an undefined key is not written', { a: 1, b: undefined }, { a: 1 }],
  ['an undefined key against a null one', { a: 1, b: undefined }, { a: 1, b: null }],
  ['an extra key', { a: 1 }, { a: 1, b: 2 }],
  ['a missing key', { a: 1, b: 2 }, { a: 1 }],
  ['undefined in an array is null', [1, undefined], [1, null]],
  ['a function in an array is null', [() => 1], [null]],
  ['a function value is not written', { a: 1, f: () => 1 }, { a: 1 }],
  ['NaN is null', { a: Number.NaN }, { a: null }],
  ['two non-finite numbers', [Number.NaN, Infinity], [-Infinity, null]],
  ['a number against its string', { a: 1 }, { a: '1' }],
  ['zero against false', [0], [false]],
  ['null against an empty object', { a: null }, { a: {} }],
  ['an array against an object', { a: [] }, { a: {} }],
  ['arrays of other lengths', [1, 2], [1, 2, 3]],
  ['a Date is compared by its JSON', { at: new Date(0) }, { at: '1970-01-01T00:00:00.000Z' }],
  ['two Dates apart', { at: new Date(0) }, { at: new Date(1) }],
];

for (const [name, a, b] of pairs) {
  test(`sameJson agrees with the sorted JSON: ${name}`, () => {
    const expected = canonical(a) === canonical(b);
    assert.equal(sameJson(a, b), expected);
    assert.equal(sameJson(b, a), expected);
  });
}

test('the cases above include both answers', () => {
  const answers = new Set(pairs.map(([, a, b]) => canonical(a) === canonical(b)));
  assert.deepEqual([...answers].sort(), [false, true]);
});
