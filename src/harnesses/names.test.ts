import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HARNESSES } from './registry.ts';
import { HARNESS_NAMES } from './names.ts';

describe('the harness ids the CLI reads without the adapters', () => {
  it('are the registry\'s, in its order', () => {
    assert.deepEqual([...HARNESS_NAMES], [...HARNESSES]);
  });
});
