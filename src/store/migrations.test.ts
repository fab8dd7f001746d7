import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MIGRATIONS } from './migrations.ts';
import { SCHEMA_MARKER, SCHEMA_VERSION } from './schema-version.ts';

describe('the schema version the CLI reads without the migrations', () => {
  it('is the last migration\'s version, and the marker names it', () => {
    assert.equal(SCHEMA_VERSION, Math.max(...MIGRATIONS.map((m) => m.version)));
    assert.equal(SCHEMA_MARKER, `muster-schema-${SCHEMA_VERSION}`);
  });
});
