import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlatYaml, parseWorkspace } from './workspace-yaml.ts';
import { FIXTURES, TUI_ID } from './copilot-fixtures.test-support.ts';

test('a real workspace.yaml: id, cwd, the quoted first prompt as name, times', () => {
  const w = parseWorkspace(readFileSync(join(FIXTURES, 'session-state', TUI_ID, 'workspace.yaml'), 'utf8'));
  assert.deepEqual(w, {
    id: TUI_ID, cwd: '/tmp/cop-play/h2/proj', name: 'RUNCMD: echo perm > p.txt', userNamed: false,
    createdAt: '2026-12-01T12:50:02.653Z', updatedAt: '2026-12-01T12:50:11.439Z',
  });
});

test('scalars: single quotes with doubled quotes, JSON double quotes, plain with a comment; blocks and lists skipped', () => {
  const y = parseFlatYaml([
    "a: 'it''s: here'",
    'b: "line\\none \\"q\\""',
    'c: plain value # note',
    'd: |',
    '  block text',
    'e: [1, 2]',
    'f:',
    '  nested: x',
    'g: ~',
    'bad line',
  ].join('\n'));
  assert.equal(y.get('a'), "it's: here");
  assert.equal(y.get('b'), 'line\none "q"');
  assert.equal(y.get('c'), 'plain value');
  for (const k of ['d', 'e', 'f', 'g', 'nested']) assert.equal(y.has(k), false, k);
});

test('garbage is an empty workspace, never an exception', () => {
  assert.deepEqual(parseWorkspace('\u0000\u0001{not yaml'), { id: null, cwd: null, name: null, userNamed: false, createdAt: null, updatedAt: null });
  assert.equal(parseWorkspace('user_named: true\nname: demo\n').userNamed, true);
});
