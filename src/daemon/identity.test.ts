import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { VERSION, buildIdentity } from './identity.ts';

test('the build version is the package version', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
  assert.equal(buildIdentity({}).buildId, `muster@${pkg.version}`);
  assert.equal(buildIdentity({ MUSTER_BUILD_ID: 'muster@other' }).buildId, 'muster@other');
});
