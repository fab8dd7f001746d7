// Scene validation and persistence: limits, unknown element types kept, malformed ones refused.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createBoardFixture, PNG_1PX } from './board-fixtures.test-support.ts';
import { validateScene } from './scene.ts';
import { sniffImage } from './sniff.ts';
import { MusterError } from '../errors/index.ts';

const f = createBoardFixture();
after(() => f.cleanup());
const rect = { id: 'r1', type: 'rectangle', x: 10, y: 20, width: 100, height: 50, isDeleted: false };

test('unknown element types and fields are kept; app state trimmed to what is restored', () => {
  const v = validateScene({ elements: [rect, { id: 'z', type: 'hologram-v9', x: 1, y: 2, custom: { deep: [1] } }], appState: { scrollX: 5, zoom: { value: 2 }, openMenu: 'x' } });
  assert.ok(v.ok);
  assert.deepEqual(v.value.elements[1], { id: 'z', type: 'hologram-v9', x: 1, y: 2, custom: { deep: [1] } });
  assert.deepEqual(v.value.appState, { scrollX: 5, zoom: { value: 2 } });
});

test('malformed scenes are refused with a reason', () => {
  const bad: [unknown, RegExp][] = [
    [{ elements: 'x' }, /elements must be an array/],
    [{ elements: [{ type: 'rectangle' }] }, /id/],
    [{ elements: [{ id: 'a', type: 'rect<script>' }] }, /type/],
    [{ elements: [{ ...rect, x: 'NaN' }] }, /x must be a finite number/],
    [{ elements: [{ ...rect, x: 1e12 }] }, /x must be a finite number/],
    [{ elements: [], positions: { 'claude:../etc': { x: 1, y: 1 } } }, /positions key/],
    [{ elements: [], positions: { 'claude:40437031-5c17-43a7-8062-c5f8980812c9': { x: 1 } } }, /finite/],
    [{ elements: [], files: { f1: { dataURL: 'data:image/png;base64,' + Buffer.from('hello').toString('base64') } } }, /not a PNG/],
    [{ elements: Array.from({ length: 20_001 }, (_, i) => ({ id: `e${i}`, type: 'line' })) }, /at most/],
  ];
  for (const [body, re] of bad) {
    const v = validateScene(body as Record<string, unknown>);
    assert.equal(v.ok, false, JSON.stringify(body).slice(0, 80));
    if (!v.ok) assert.match(v.error, re);
  }
});

test('save, reload, files by id; the stored file type is the sniffed one', async () => {
  const key = 'claude:40437031-5c17-43a7-8062-c5f8980812c9';
  const dataURL = `data:image/jpeg;base64,${PNG_1PX.toString('base64')}`;
  const img = { id: 'i1', type: 'image', x: 0, y: 0, width: 1, height: 1, fileId: 'file-1' };
  const saved = await f.scene.save({ elements: [rect, img], positions: { [key]: { x: 3, y: 4 } }, files: { 'file-1': { mimeType: 'image/jpeg', dataURL } } });
  assert.equal(saved.version, 1);
  const again = await f.scene.get();
  assert.deepEqual(again.elements, [rect, img]);
  assert.deepEqual(again.positions, { [key]: { x: 3, y: 4 } });
  assert.deepEqual(again.fileIds, ['file-1']);
  const files = await f.scene.files(['file-1', 'missing']);
  assert.deepEqual(Object.keys(files), ['file-1']);
  assert.equal(files['file-1']?.mimeType, 'image/png');
  assert.equal((await f.scene.save({ elements: [] })).version, 2);
  await assert.rejects(f.scene.save({ elements: [{}] }), (e) => e instanceof MusterError && e.code === 'invalid_scene');
  await assert.rejects(f.scene.files('file-1'), (e) => e instanceof MusterError && e.code === 'invalid_argument');
});

test('regression: a file id named like an Object member (__proto__) is answered as that file', async () => {
  const dataURL = `data:image/png;base64,${PNG_1PX.toString('base64')}`;
  await f.scene.save(JSON.parse(`{"elements":[],"files":{"__proto__":{"dataURL":"${dataURL}"},"toString":{"dataURL":"${dataURL}"}}}`));
  const files = await f.scene.files(['__proto__', 'toString', 'constructor']);
  assert.deepEqual(Object.keys(files).sort(), ['__proto__', 'toString']);
  assert.equal(Object.getPrototypeOf(files), Object.prototype);
  assert.equal(JSON.parse(JSON.stringify(files)).__proto__.mimeType, 'image/png');
});

test('sniffing reads bytes: an SVG behind a prolog and comment is SVG; HTML is not', () => {
  assert.equal(sniffImage(Buffer.from('\uFEFF<?xml version="1.0"?><!-- x --><!DOCTYPE svg><svg></svg>'))?.mime, 'image/svg+xml');
  assert.equal(sniffImage(Buffer.from('<html><svg></svg></html>')), null);
  assert.equal(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))?.mime, 'image/webp');
  assert.equal(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))?.mime, 'image/jpeg');
  assert.equal(sniffImage(Buffer.from([0xff, 0xfe, 0x00])), null);
});
