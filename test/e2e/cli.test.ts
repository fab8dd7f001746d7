// The CLI's argument handling over the real built binary: unknown commands, options and flags are
// usage errors (exit 2) naming what was wrong. None of these cases needs a daemon.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, runCli, tempHome } from './kit.ts';

describe('CLI arguments', () => {
  const t = tempHome('muster-e2e-cli-');
  const env = envFor(t.home);
  after(() => t.cleanup());

  it('a command named like an Object member (constructor, toString, __proto__) is an unknown command (exit 2)', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const r = await runCli([name], env);
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assert.equal(r.json.error?.code, 'usage');
      assert.match(r.json.error?.message ?? '', new RegExp(`unknown command or harness '${name}'`));
    }
    assert.equal(existsSync(join(t.home, 'muster.db.lock')), false, 'no daemon was started');
  });
});
