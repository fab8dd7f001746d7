import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ensureHarnessCli } from './install.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A stand-in npm: records each call, sleeps a little (to overlap racers), creates the bin. */
function fakeNpm(dir: string, opts: { fail?: boolean } = {}): { npm: string; calls: string } {
  const calls = path.join(dir, 'npm-calls.log');
  const npm = path.join(dir, 'fake-npm.mjs');
  fs.writeFileSync(
    npm,
    `#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(calls)}, JSON.stringify({ pid: process.pid, args, cwd: process.cwd() }) + '\\n');
await new Promise((r) => setTimeout(r, 400));
${opts.fail ? "console.error('registry down'); process.exit(1);" : ''}
const prefix = args[args.indexOf('--prefix') + 1];
const bin = path.join(prefix, 'node_modules', '.bin');
fs.mkdirSync(bin, { recursive: true });
for (const name of ['claude', 'codex', 'opencode', 'pi', 'omp', 'bun']) fs.writeFileSync(path.join(bin, name), '#!/bin/sh\\n', { mode: 0o755 });
`,
    { mode: 0o755 },
  );
  return { npm, calls };
}

function readCalls(file: string): { pid: number; args: string[]; cwd: string }[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
}

test('ensureHarnessCli installs once into <cache>/<name>@<version> with the allowScripts policy, then is idempotent', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-install-'));
  try {
    const { npm, calls } = fakeNpm(dir);
    const cacheDir = path.join(dir, 'cache');
    const [a, b] = await Promise.all([ensureHarnessCli('omp', { cacheDir, npm, log: () => {} }), ensureHarnessCli('omp', { cacheDir, npm, log: () => {} })]);
    assert.deepEqual(a, b);
    assert.equal(a.bin, path.join(cacheDir, 'omp@18.2.3', 'node_modules', '.bin', 'omp'));
    assert.equal(a.version, '18.2.3');
    const [call] = readCalls(calls);
    assert.equal(readCalls(calls).length, 1);
    assert.equal(call?.cwd, path.join(cacheDir, 'omp@18.2.3'), 'npm runs inside the prefix, never the repo');
    assert.deepEqual(call?.args.slice(-2), ['@oh-my-pi/pi-coding-agent@18.2.3', 'bun@1.4.5']);
    const manifest = JSON.parse(fs.readFileSync(path.join(cacheDir, 'omp@18.2.3', 'package.json'), 'utf8'));
    assert.deepEqual(manifest.allowScripts, { bun: true });
    assert.ok(fs.existsSync(path.join(cacheDir, 'omp@18.2.3', '.muster-installed.json')));
    // A fresh call (new cacheDir key in a new process would see the marker) does not run npm again.
    await ensureHarnessCli('omp', { cacheDir, npm, log: () => {} });
    assert.equal(readCalls(calls).length, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('two processes installing the same CLI at once run npm once (directory lock)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-install-'));
  try {
    const { npm, calls } = fakeNpm(dir);
    const cacheDir = path.join(dir, 'cache');
    const script = `import { ensureHarnessCli } from ${JSON.stringify(path.join(here, 'install.ts'))};
const cli = await ensureHarnessCli('pi', { cacheDir: ${JSON.stringify(cacheDir)}, npm: ${JSON.stringify(npm)}, log: () => {} });
console.log(cli.bin);`;
    const runOne = (): Promise<string> =>
      new Promise((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 }, (e, out, err) => (e ? reject(new Error(err)) : resolve(out.trim()))),
      );
    const outs = await Promise.all([runOne(), runOne()]);
    assert.deepEqual(outs, [path.join(cacheDir, 'pi@0.73.1', 'node_modules', '.bin', 'pi'), path.join(cacheDir, 'pi@0.73.1', 'node_modules', '.bin', 'pi')]);
    assert.equal(readCalls(calls).length, 1);
    assert.ok(!fs.existsSync(path.join(cacheDir, 'pi@0.73.1.lock')), 'lock released');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a failed install leaves no marker, rejects with the cause, and can be retried', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-install-'));
  try {
    const cacheDir = path.join(dir, 'cache');
    const bad = fakeNpm(path.join(dir), { fail: true });
    await assert.rejects(ensureHarnessCli('codex', { cacheDir, npm: bad.npm, log: () => {} }), /failed \(exit 1\)/);
    assert.ok(!fs.existsSync(path.join(cacheDir, 'codex@0.171.0', '.muster-installed.json')));
    const good = fakeNpm(fs.mkdtempSync(path.join(dir, 'good-')));
    const cli = await ensureHarnessCli('codex', { cacheDir, npm: good.npm, log: () => {} });
    assert.ok(fs.existsSync(cli.bin));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
