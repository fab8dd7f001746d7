import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, startOpencodeServe } from './opencode-serve.ts';

test('freePort: a port on 127.0.0.1 that can be bound at once', async () => {
  const port = await freePort();
  assert.ok(port > 0 && port < 65_536);
  const srv = createServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(port, '127.0.0.1', resolve));
  await new Promise((r) => srv.close(r));
});

test('a server that exits before it answers: the error says so, with the end of its output', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-serve-'));
  try {
    const bin = path.join(dir, 'fake-opencode');
    fs.writeFileSync(bin, '#!/bin/sh\necho "argv: $*"\necho "boom: cannot listen" >&2\nexit 3\n', { mode: 0o755 });
    await assert.rejects(startOpencodeServe(bin, { cwd: dir, env: process.env, readyMs: 10_000 }), (e: Error) => {
      assert.match(e.message, /exited \(3\)/);
      assert.match(e.message, /boom: cannot listen/);
      assert.match(e.message, /argv: serve --port \d+ --hostname 127\.0\.0\.1 --print-logs/);
      return true;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a server that never answers: the error names the wait', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-serve-'));
  try {
    const bin = path.join(dir, 'fake-opencode');
    fs.writeFileSync(bin, '#!/bin/sh\necho starting\nexec sleep 30\n', { mode: 0o755 });
    await assert.rejects(startOpencodeServe(bin, { cwd: dir, env: process.env, readyMs: 600 }), /did not answer within 600 ms; its output ended with:\nstarting/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
