import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTtyModeReader, parseSttyMode } from './tty-mode.ts';

const root = mkdtempSync(join(tmpdir(), 'muster-tty-mode-'));
after(() => rmSync(root, { recursive: true, force: true }));

const fd0 = (pid: number, target: string) => {
  mkdirSync(join(root, String(pid), 'fd'), { recursive: true });
  symlinkSync(target, join(root, String(pid), 'fd', '0'));
};

test('stty -a: -icanon is key mode (a TUI), icanon is line mode (a print run, a shell command)', () => {
  assert.equal(parseSttyMode('speed 38400 baud; rows 40;\n-parenb -parodd cs8\nisig -icanon -iexten -echo echoe'), 'keys');
  assert.equal(parseSttyMode('isig icanon iexten echo echoe echok'), 'lines');
  assert.equal(parseSttyMode('nothing useful'), null);
});

test('the mode is read from the pty on the process\'s stdin; anything else is unknown', async () => {
  fd0(10, '/dev/pts/3');
  fd0(11, '/dev/null');
  fd0(12, 'pipe:[1234]');
  const asked: string[][] = [];
  const read = createTtyModeReader({ procRoot: root, stty: async (args) => (asked.push(args), 'isig -icanon -echo') });
  assert.equal(await read(10), 'keys');
  assert.deepEqual(asked, [['-F', '/dev/pts/3', '-a']]);
  assert.equal(await read(11), null);
  assert.equal(await read(12), null);
  assert.equal(await read(13), null, 'no such process');
  assert.equal(await read(-1), null);
  assert.equal(asked.length, 1, 'stty ran only for the pty');
  const failing = createTtyModeReader({ procRoot: root, stty: async () => { throw new Error('stty: cannot open'); } });
  assert.equal(await failing(10), null);
});
