// Settings typed per key: validated patches, and stored values read back over the defaults.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { MusterError } from '../errors/index.ts';
import { defaultSettings, settingsFrom, validateSettingsPatch } from './settings.ts';

const refused = (e: unknown) => e instanceof MusterError && e.code === 'invalid_setting' && e.status === 400;

it('a patch keeps only known keys with acceptable values; inherited names are unknown keys', () => {
  assert.deepEqual(validateSettingsPatch({ theme: 'dark', rescanSeconds: 45, webhookFormat: 'ntfy' }), { theme: 'dark', rescanSeconds: 45, webhookFormat: 'ntfy' });
  for (const key of ['__proto__', 'constructor', 'toString', 'nope']) assert.throws(() => validateSettingsPatch(JSON.parse(`{"${key}": 1}`)), refused, key);
  for (const bad of [{ theme: 'blue' }, { rescanSeconds: 5 }, { auditEnabled: 'yes' }, { webhookUrl: 'ftp://x' }]) assert.throws(() => validateSettingsPatch(bad), refused);
});

it('stored values over the defaults: unknown keys ignored, values no longer accepted read as the default', () => {
  const s = settingsFrom([['theme', 'light'], ['askWaitSeconds', 10], ['gone', 1], ['__proto__', 1], ['rescanSeconds', 1], ['notifyDesktop', 'on']]);
  assert.deepEqual(s, { ...defaultSettings(), theme: 'light', askWaitSeconds: 10 });
  assert.equal(Object.getPrototypeOf(s), Object.prototype);
});

it('auditModel is validated when set: every accepted form passes, anything else is invalid_setting naming the forms', () => {
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

it('goal defaults: a budget of 0 means none, a ceiling of at least one turn', () => {
  assert.equal(defaultSettings().goalDefaultTokenBudget, 0);
  assert.equal(defaultSettings().goalDefaultMaxTurns, 50);
  assert.equal(validateSettingsPatch({ goalDefaultTokenBudget: 250_000 }).goalDefaultTokenBudget, 250_000);
  assert.throws(() => validateSettingsPatch({ goalDefaultMaxTurns: 0 }), { code: 'invalid_setting' });
  assert.throws(() => validateSettingsPatch({ goalDefaultTokenBudget: -1 }), { code: 'invalid_setting' });
});
