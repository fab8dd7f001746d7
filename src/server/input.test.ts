// The routes' one set of input validators: each returns the value or throws the stable code.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { MusterError } from '../errors/index.ts';
import { bodySessionId, harnessIn, optAbsolutePath, optBoolean, optHarness, optInteger, optNonNegative, optOneOf, optSessionIdIn, optString, optText, queryBoolean, queryInt, sessionIdIn } from './input.ts';

const SID = '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const code = (c: string) => (e: unknown) => e instanceof MusterError && e.code === c && e.status === 400;

it('session ids: invalid_id when malformed; a body without a string sessionId is invalid_body', () => {
  assert.equal(sessionIdIn(SID), SID);
  assert.equal(optSessionIdIn(undefined), undefined);
  assert.throws(() => sessionIdIn('../etc'), code('invalid_id'));
  assert.throws(() => optSessionIdIn('x'), code('invalid_id'));
  assert.equal(bodySessionId(SID), SID);
  assert.throws(() => bodySessionId(42), code('invalid_body'));
  assert.throws(() => bodySessionId('nope'), code('invalid_id'));
});

it('harnesses and closed lists: absent is undefined, anything else must be listed', () => {
  assert.equal(optHarness(undefined), undefined);
  assert.equal(optHarness(null), undefined);
  assert.equal(optHarness('codex'), 'codex');
  assert.throws(() => optHarness('bash'), code('invalid_body'));
  assert.throws(() => harnessIn(undefined, 'invalid_argument'), code('invalid_argument'));
  assert.throws(() => harnessIn('__proto__'), code('invalid_body'));
  assert.equal(optOneOf('b', ['a', 'b'] as const, 'kind'), 'b');
  assert.throws(() => optOneOf('toString', ['a', 'b'] as const, 'kind'), code('invalid_argument'));
});

it('numbers, booleans and strings of a body: invalid_body with the field named', () => {
  assert.equal(optInteger(0, 'pid'), 0);
  assert.throws(() => optInteger(0, 'pid', 1), (e) => code('invalid_body')(e) && /pid must be a positive integer/.test((e as Error).message));
  for (const bad of ['12', -3, 1.5]) assert.throws(() => optInteger(bad, 'exitCode'), code('invalid_body'));
  assert.equal(optNonNegative(undefined, 'tokens'), undefined);
  assert.throws(() => optNonNegative(-1, 'seconds', 'invalid_argument'), code('invalid_argument'));
  assert.throws(() => optNonNegative(Infinity, 'tokens'), code('invalid_body'));
  assert.equal(optBoolean(false, 'print'), false);
  assert.throws(() => optBoolean('yes', 'print'), code('invalid_body'));
  assert.equal(optString('lch_1', 'id', 100), 'lch_1');
  assert.throws(() => optString('a\0b', 'name'), code('invalid_body'));
  assert.throws(() => optString('x'.repeat(101), 'id', 100), code('invalid_body'));
  assert.equal(optText('a\0b', 'lastAssistantText', 10), 'a\0b');
  assert.throws(() => optText(7, 'model', 200), code('invalid_body'));
  assert.equal(optAbsolutePath('/w', 'cwd'), '/w');
  assert.throws(() => optAbsolutePath('w', 'cwd', 'invalid_argument'), code('invalid_argument'));
});

it('query parameters: whole numbers in range, yes/no words', () => {
  assert.equal(queryInt(undefined, 'limit', 1, 200), undefined);
  assert.equal(queryInt('200', 'limit', 1, 200), 200);
  for (const bad of ['0', '201', '-1', '1e2', '', ' 5', '5.0']) assert.throws(() => queryInt(bad, 'limit', 1, 200), code('invalid_argument'), bad);
  assert.equal(queryBoolean('1', 'live'), true);
  assert.equal(queryBoolean('false', 'live'), false);
  assert.throws(() => queryBoolean('yes', 'live'), code('invalid_argument'));
});
