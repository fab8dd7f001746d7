// The desktop channel against a real child process: a stand-in `notify-send` script in a temp dir
// that records its argv (and one that fails), run through a real execFile runner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesktopChannel, type RunResult } from './desktop.ts';
import { channelContract, sampleNotification } from './contract.test-support.ts';

const run = (argv: string[]) =>
  new Promise<RunResult>((resolve) =>
    execFile(argv[0] as string, argv.slice(1), { timeout: 5000 }, (err, _o, stderr) =>
      resolve(err ? { code: typeof err.code === 'number' ? err.code : null, error: `${err.message} ${stderr}` } : { code: 0 }),
    ),
  );

function fixtureDir() {
  const dir = mkdtempSync(join(tmpdir(), 'muster-desktop-'));
  const log = join(dir, 'calls.log');
  const script = (name: string, body: string) => {
    const p = join(dir, name);
    writeFileSync(p, `#!/bin/sh\n${body}\n`);
    chmodSync(p, 0o755);
    return p;
  };
  // Records each argument on its own line, NUL-free, then a separator line per call.
  const ok = script('notify-send', `for a in "$@"; do printf '%s\\n' "$a" >> "${log}"; done; printf '%s\\n' '<<end>>' >> "${log}"`);
  const failing = script('notify-send-broken', `case "$1" in --version) exit 0;; esac; echo "no DBus session" >&2; exit 1`);
  return { dir, log, ok, failing };
}

channelContract('desktop (notify-send)', async () => {
  const d = fixtureDir();
  return {
    working: async () => createDesktopChannel({ run, command: d.ok }),
    failing: async () => createDesktopChannel({ run, command: d.failing }),
    received: async () => (existsSync(d.log) ? readFileSync(d.log, 'utf8').split('<<end>>\n').filter((s) => s.trim() && !s.startsWith('--version')) : []),
    cleanup: async () => rmSync(d.dir, { recursive: true, force: true }),
  };
});

test('desktop: unavailable when the command is missing; high urgency maps to critical; the failure says why', async (t) => {
  const d = fixtureDir();
  t.after(() => rmSync(d.dir, { recursive: true, force: true }));
  const missing = createDesktopChannel({ run, command: join(d.dir, 'nope') });
  assert.equal(await missing.available(), false);
  const r = await missing.send(sampleNotification());
  assert.equal(r.ok, false);
  const broken = await createDesktopChannel({ run, command: d.failing }).send(sampleNotification());
  assert.ok(!broken.ok && /no DBus session/.test(broken.error), JSON.stringify(broken));
  await createDesktopChannel({ run, command: d.ok }).send(sampleNotification({ urgency: 'high' }));
  assert.match(readFileSync(d.log, 'utf8'), /^--urgency=critical$/m);
});
