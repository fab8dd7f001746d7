// The token file (issue 13, point 2): an empty or malformed file is never the token; the daemon
// replaces it atomically with a new one, clients read it as "no token".
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateToken, readToken } from './paths.ts';
import { isWellFormedToken } from './token-format.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-token-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `home-${n++}-token`);
const GOOD = 'Q'.repeat(43);

describe('loadOrCreateToken', () => {
  it('creates a 43-character base64url token, 0600, when the file is missing; then keeps it', () => {
    const p = fresh();
    const t = loadOrCreateToken(p);
    assert.match(t, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(readFileSync(p, 'utf8'), `${t}\n`);
    assert.equal(statSync(p).mode & 0o777, 0o600);
    assert.equal(loadOrCreateToken(p), t);
  });

  it('keeps a well-formed token written by an earlier version', () => {
    const p = fresh();
    writeFileSync(p, `${GOOD}\n`, { mode: 0o600 });
    assert.equal(loadOrCreateToken(p), GOOD);
  });

  for (const [what, text] of [['empty', ''], ['blank', ' \n'], ['too short (abc)', 'abc'], ['31 characters long', 'x'.repeat(31)], ['not base64url', `${'a'.repeat(40)} b+c/`]] as const) {
    it(`replaces a token file that is ${what} with a new token, atomically, leaving no staging file`, () => {
      const p = fresh();
      writeFileSync(p, text, { mode: 0o644 });
      const t = loadOrCreateToken(p);
      assert.ok(isWellFormedToken(t), t);
      assert.notEqual(t, text.trim());
      assert.equal(readFileSync(p, 'utf8'), `${t}\n`);
      assert.equal(statSync(p).mode & 0o777, 0o600, 'the replacement is private');
      assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
    });
  }

  it('fails with store_error when the path is a directory, never treating it as a token', () => {
    const p = mkdtempSync(join(dir, 'dir-'));
    assert.throws(() => loadOrCreateToken(p), (e: unknown) => (e as { code?: string }).code === 'store_error');
  });
});

describe('readToken', () => {
  it('is null for a missing, empty or malformed file, the token otherwise', () => {
    const p = fresh();
    assert.equal(readToken(p), null);
    for (const bad of ['', '\n', 'abc', 'x'.repeat(31)]) {
      writeFileSync(p, bad);
      assert.equal(readToken(p), null, JSON.stringify(bad));
    }
    writeFileSync(p, `${GOOD}\n`);
    assert.equal(readToken(p), GOOD);
  });
});
