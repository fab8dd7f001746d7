// Regression (issue 13, point 4): text from harness files used as a key in a plain object. A model
// or tool call named `__proto__`, `constructor` or `toString` must be an ordinary entry: never
// Object.prototype's members, never a replaced prototype, never a polluted Object.prototype.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { keyedObject, ownValue, setOwn } from './own-keys.ts';
import { costOf, countAssistantUsage, createUsageState } from '../harnesses/claude/discovery/transcript-usage.ts';
import { applyRolloutRecord, emptyRolloutSummary } from '../harnesses/codex/discovery/rollout.ts';
import { rec } from '../harnesses/codex/discovery/rollout-fixtures.test-support.ts';
import { classifyOpenCodeArgv } from '../harnesses/opencode/discovery/argv.ts';
import { priceFor, priceTokens } from './pricing/index.ts';

const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('keys from harness files that name Object.prototype members', () => {
  it('ownValue ignores inherited members; setOwn stores __proto__ as an entry', () => {
    const o: Record<string, number> = {};
    for (const k of INHERITED) assert.equal(ownValue(o, k), undefined, k);
    for (const k of INHERITED) setOwn(o, k, 1);
    assert.deepEqual(Object.keys(o).sort(), [...INHERITED].sort());
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.equal(JSON.parse(JSON.stringify(o)).__proto__, 1);
  });

  it('keyedObject is an ordinary empty object: Object.prototype, `{}` as JSON and through a clone, keys of any name', () => {
    const o = keyedObject<number>();
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.deepEqual(o, {});
    for (const k of [...INHERITED, 'call_1']) setOwn(o, k, 2);
    delete o.call_1;
    assert.deepEqual(Object.keys(o).sort(), [...INHERITED].sort());
    assert.equal(ownValue(o, 'toString'), 2);
    assert.deepEqual(JSON.parse(JSON.stringify(o)), structuredClone(o));
    assert.equal(JSON.stringify(keyedObject()), '{}');
  });

  it('a Claude message of model __proto__ or constructor is counted under that name and pollutes nothing', () => {
    const state = createUsageState();
    for (const model of INHERITED) countAssistantUsage(state, { id: `msg_${model}`, model, usage: { input_tokens: 10, output_tokens: 2 } });
    assert.equal(state.tokens.input, 50);
    assert.deepEqual(Object.keys(state.byModel).sort(), [...INHERITED].sort());
    assert.equal(ownValue(state.byModel, '__proto__')?.input, 10);
    assert.equal(({} as Record<string, unknown>).input, undefined, 'Object.prototype is untouched');
    assert.equal(costOf(state), null, 'unknown models cost null, not NaN');
  });

  it('a Codex tool call with call_id __proto__ stays pending until its output', () => {
    const s = emptyRolloutSummary();
    for (const l of [rec.meta(), rec.taskStarted(), rec.functionCall('__proto__')]) applyRolloutRecord(s, JSON.parse(l));
    assert.deepEqual(Object.keys(s.pending), ['__proto__']);
    applyRolloutRecord(s, JSON.parse(rec.functionOutput('__proto__')));
    assert.deepEqual(Object.keys(s.pending), []);
  });

  it('an opencode process whose first argument is constructor is a TUI in that directory, not a strange kind', () => {
    for (const k of INHERITED) assert.equal(classifyOpenCodeArgv(['opencode', k]).kind, 'tui', k);
  });

  it('a model named like an Object member has no price', () => {
    for (const k of INHERITED) {
      assert.equal(priceFor(k), null, k);
      assert.equal(priceTokens(k, { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }), null, k);
    }
  });
});
