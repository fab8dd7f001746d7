// Regression (issue 13, point 10): `muster down` while a wrapped agent runs, then the agent quits.
// Nothing on the way out — the wrapper reporting the exit, `muster hook`, the pi/omp extension's
// shutdown post — may start a daemon, nor create MUSTER_HOME again after it was deleted.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, envFor, runCli, until } from './kit.ts';

/**
 * A stand-in for pi: says it started, waits for `quit`, then does what a quitting pi does with
 * Muster's extension (its session_shutdown handler posts) and runs `muster hook` as a hook would.
 */
const FAKE_PI = `#!/usr/bin/env node
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const dir = process.env.FAKE_PI_DIR;
const ext = process.argv[process.argv.indexOf('-e') + 1];
// Loaded at start, as pi does: the file lives in MUSTER_HOME, which the test may delete meanwhile.
copyFileSync(ext, dir + '/ext.mjs');
const handlers = new Map();
(await import(dir + '/ext.mjs')).default({ on: (n, h) => handlers.set(n, h), registerTool: () => {} });
writeFileSync(dir + '/started', String(process.pid));
while (!existsSync(dir + '/quit')) await new Promise((r) => setTimeout(r, 20));
await handlers.get('session_shutdown')({}, {});
spawnSync(process.execPath, [process.env.FAKE_PI_MUSTER, 'hook', 'pi', 'session_shutdown'], { input: '{}', stdio: ['pipe', 'ignore', 'ignore'] });
writeFileSync(dir + '/quitted', '');
`;

describe('muster down stays down', () => {
  const root = mkdtempSync(join(tmpdir(), 'muster-e2e-down-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'pi'), FAKE_PI);
  chmodSync(join(bin, 'pi'), 0o755);

  for (const deleteHome of [false, true]) {
    it(`a wrapped pi quitting after \`muster down\`${deleteHome ? ' and MUSTER_HOME deleted' : ''} starts no daemon${deleteHome ? ' and creates no MUSTER_HOME' : ''}`, async () => {
      const home = join(root, `home-${deleteHome}`);
      const fake = join(root, `fake-${deleteHome}`);
      mkdirSync(fake);
      const env = envFor(home, { PATH: `${bin}:${process.env.PATH}`, FAKE_PI_DIR: fake, FAKE_PI_MUSTER: BIN });
      const wrapper = spawn(process.execPath, [BIN, 'pi', '--name', 'quitter'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      wrapper.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((r) => wrapper.once('exit', (c) => r(c)));
      try {
        await until('the wrapped pi started', () => (existsSync(join(fake, 'started')) ? true : undefined), 30_000, { detail: () => stderr });
        const down = await runCli(['down'], env);
        assert.equal(down.json.stopped, true, down.stderr);
        if (deleteHome) rmSync(home, { recursive: true, force: true });
        writeFileSync(join(fake, 'quit'), '');
        assert.equal(await exited, 0, stderr);
        assert.ok(existsSync(join(fake, 'quitted')), 'the extension and the hook ran on the way out');
        if (deleteHome) {
          assert.equal(existsSync(home), false, 'MUSTER_HOME was created again');
        } else {
          assert.equal(existsSync(join(home, 'muster.db.lock')), false, 'a daemon holds the lock again');
          assert.deepEqual(readdirSync(join(home, 'launch')), [], 'the launch files are removed');
          const s = await runCli(['status'], env);
          assert.equal(s.json.running, false);
        }
      } finally {
        wrapper.kill('SIGKILL');
        await runCli(['down'], env);
      }
    });
  }
});
