import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSettings, validateSettingsPatch } from './settings.ts';

test('auditModel is validated when set: every accepted form passes, anything else is invalid_setting naming the forms', () => {
  for (const ok of ['', 'openai/llama3', 'anthropic/claude-sonnet-4-5', 'cli:claude', 'cli:codex/gpt-5', 'cli:pi', 'cli:omp/fakeoai/fake-model', 'cli:opencode/fake/fake-model']) {
    assert.equal(validateSettingsPatch({ auditModel: ok }).auditModel, ok, ok);
  }
  for (const bad of ['nope/x', 'openai/', 'cli:vim', 'cli:claude/', 'gpt-5', 42]) {
    assert.throws(() => validateSettingsPatch({ auditModel: bad }), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'invalid_setting');
      assert.match(e.message, /anthropic\/<model>, openai\/<model>, cli:claude\[\/<model>\].*cli:opencode\[\/<model>\]/);
      return true;
    }, JSON.stringify(bad));
  }
});

test('goal defaults: a budget of 0 means none, a ceiling of at least one turn', () => {
  assert.equal(defaultSettings().goalDefaultTokenBudget, 0);
  assert.equal(defaultSettings().goalDefaultMaxTurns, 50);
  assert.equal(validateSettingsPatch({ goalDefaultTokenBudget: 250_000 }).goalDefaultTokenBudget, 250_000);
  assert.throws(() => validateSettingsPatch({ goalDefaultMaxTurns: 0 }), { code: 'invalid_setting' });
  assert.throws(() => validateSettingsPatch({ goalDefaultTokenBudget: -1 }), { code: 'invalid_setting' });
});
