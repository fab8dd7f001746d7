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
import { applyEvent as applyCopilotEvent, emptySummary as emptyCopilotSummary } from '../harnesses/copilot/discovery/events.ts';
import { applyChatRecord, emptyChatSummary } from '../harnesses/gemini/discovery/chat-record.ts';
import { priceFor, priceTokens } from './pricing/index.ts';

const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const TS = '2026-12-01T10:00:00.000Z';

/** Neither Object.prototype nor Object itself gained a count. */
function untouched(): void {
  assert.equal(({} as Record<string, unknown>).input, undefined, 'Object.prototype is untouched');
  assert.equal((Object as unknown as Record<string, unknown>).input, undefined, 'Object is untouched');
}

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

  it('a Codex turn whose model is __proto__ or constructor is charged under that name and pollutes nothing', () => {
    const s = emptyRolloutSummary();
    let total = 0;
    for (const model of INHERITED) {
      total += 10;
      applyRolloutRecord(s, { timestamp: TS, type: 'turn_context', payload: { model, cwd: '/w' } });
      const usage = (input: number) => ({ input_tokens: input, output_tokens: 0 });
      applyRolloutRecord(s, { timestamp: TS, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage(total), last_token_usage: usage(10) } } });
    }
    assert.equal(s.tokens.input, 50);
    assert.deepEqual(Object.keys(s.byModel).sort(), [...INHERITED].sort());
    for (const model of INHERITED) assert.equal(ownValue(s.byModel, model)?.input, 10, model);
    untouched();
  });

  it('a Copilot usage record of model __proto__ or constructor is counted under that name and pollutes nothing', () => {
    const s = emptyCopilotSummary();
    for (const model of INHERITED) applyCopilotEvent(s, { type: 'session.usage_record', timestamp: TS, data: { usage: { model, inputTokens: 10, outputTokens: 2 } } });
    assert.equal(s.tokens.input, 50);
    assert.deepEqual(Object.keys(s.byModel).sort(), [...INHERITED].sort());
    for (const model of INHERITED) assert.equal(ownValue(s.byModel, model)?.input, 10, model);
    untouched();
  });

  it('a Gemini reply of model __proto__ or constructor is counted under that name, also when written again', () => {
    const s = emptyChatSummary();
    INHERITED.forEach((model, i) => applyChatRecord(s, { type: 'gemini', id: `r${i}`, timestamp: TS, model, tokens: { input: 10, output: 2 } }));
    applyChatRecord(s, { type: 'gemini', id: 'r0', timestamp: TS, model: '__proto__', tokens: { input: 12, output: 2 } });
    assert.equal(s.tokens.input, 52);
    assert.deepEqual(Object.keys(s.byModel).sort(), [...INHERITED].sort());
    assert.equal(ownValue(s.byModel, '__proto__')?.input, 12);
    assert.equal(Object.getPrototypeOf(s.byModel), Object.prototype);
    untouched();
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
