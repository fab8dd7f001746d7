// The auditor's answer is strict JSON { allDone, remaining, needsUser }; anything else is a failed audit.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { parseVerdict } from './verdict.ts';

it('accepts the strict object (and a single json fence around it)', () => {
  assert.deepEqual(parseVerdict('{"allDone":false,"remaining":["a"," ",""],"needsUser":true}'), { ok: true, verdict: { allDone: false, remaining: ['a'], needsUser: true } });
  assert.equal(parseVerdict('```json\n{"allDone":true,"remaining":[],"needsUser":false}\n```').ok, true);
});

it('refuses prose, partial objects, wrong types and arrays', () => {
  for (const t of ['Looks done to me!', '', 'null', '[]', '{"allDone":"yes","remaining":[],"needsUser":false}', '{"allDone":true,"needsUser":false}',
    '{"allDone":true,"remaining":"none","needsUser":false}', '{"allDone":true,"remaining":[1],"needsUser":false}', '{"allDone":true,"remaining":[]}',
    'Sure: {"allDone":true,"remaining":[],"needsUser":false}']) {
    assert.equal(parseVerdict(t).ok, false, t);
  }
});
