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
