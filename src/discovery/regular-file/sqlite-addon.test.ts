// Every SQLite open names the driver's compiled addon (sqlite-files.ts): in a checkout whose install
// built it, the path is found, it is that file, and a database opened with it works.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteAddon } from './index.ts';

it('sqliteAddon names the built addon of the installed driver, and a database opens with it', () => {
  const file = sqliteAddon();
  assert.ok(file, 'npm install builds better-sqlite3 into build/Release');
  assert.equal(path.basename(file), 'better_sqlite3.node');
  assert.ok(fs.statSync(file).isFile());
  assert.equal(sqliteAddon(), file, 'found once, then remembered');
  const db = new Database(':memory:', { nativeBinding: file });
  try {
    assert.equal((db.prepare('select 41 + 1 as n').get() as { n: number }).n, 42);
  } finally {
    db.close();
  }
});
