// Board routes with no socket (app.request): packs, pack files (BEHAVIOUR E), characters, scene.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../app.ts';
import { packRoutes, packFilePath, PACK_FILE_CSP } from './packs.ts';
import { characterRoutes } from './characters.ts';
import { sceneRoutes } from './scene.ts';
import { createEventBus } from '../../events/index.ts';
import { createBoardFixture, PNG_1PX, SVG_WITH_SCRIPT } from '../../board/board-fixtures.ts';
import { HARNESSES } from '../../harnesses/registry.ts';

const TOKEN = 'b'.repeat(43);
const PORT = 7002;
const f = createBoardFixture();
after(() => f.cleanup());
const bus = createEventBus();
const app = createApp({
  token: TOKEN,
  getPort: () => PORT,
  logError: () => {},
  routes: [packRoutes({ characters: f.characters, bus }), characterRoutes({ characters: f.characters, bus }), sceneRoutes({ scene: f.scene, bus })],
});
const base = `http://127.0.0.1:${PORT}`;
const headers = { authorization: `Bearer ${TOKEN}`, host: `127.0.0.1:${PORT}`, 'content-type': 'application/json' };
const post = (path: string, body: unknown) => app.request(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
const get = (path: string) => app.request(`${base}${path}`, { headers });
const json = async (r: Response) => (await r.json()) as Record<string, unknown> & { error?: { code: string } };

test('upload an image, serve it only from its pack, inert and cached by content hash', async () => {
  assert.equal((await post('/api/packs', { name: 'Crew' })).status, 200);
  const up = await json(await post('/api/packs/image', { pack: 'crew', name: 'evil', data: SVG_WITH_SCRIPT.toString('base64') }));
  const svg = up.character as { file: string; hash: string; mime: string };
  assert.equal(svg.mime, 'image/svg+xml');
  const ok = await get(`/api/packs/crew/${svg.file}?v=${svg.hash}`);
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('content-type'), 'image/svg+xml');
  assert.equal(ok.headers.get('content-security-policy'), PACK_FILE_CSP);
  assert.equal(ok.headers.get('x-content-type-options'), 'nosniff');
  assert.match(ok.headers.get('cache-control') ?? '', /immutable/);
  assert.equal(Buffer.from(await ok.arrayBuffer()).toString(), SVG_WITH_SCRIPT.toString());
  assert.equal((await get(`/api/packs/crew/${svg.file}`)).headers.get('cache-control'), 'no-store');
  assert.equal((await get(`/api/packs/crew/${svg.file}?v=wrong`)).headers.get('cache-control'), 'no-store');
  assert.equal((await get('/api/packs/crew/0000000000000000000000aa.png')).status, 404, 'not listed by its pack');
  assert.equal((await get(`/api/packs/crew/x/${svg.file}`)).status, 404, 'three parts');
  assert.equal((await get('/api/packs/crew')).status, 404, 'one part');
  assert.equal((await get('/api/packs/crew/%E0%A4%A')).status, 400, 'bad percent-encoding');
  assert.equal((await get('/api/packs/crew/%2e%2e')).status, 404);
  assert.equal((await get('/api/packs/crew/..%2f..%2fmuster.db')).status, 404);
});

test('the image route: 1.5 MiB limit, type from the bytes', async () => {
  const big = Buffer.alloc(1.2 * 1024 * 1024, 1).toString('base64');
  assert.equal((await post('/api/packs/image', { pack: 'crew', data: big })).status, 413);
  const r = await post('/api/packs/image', { pack: 'crew', data: Buffer.from('GIF? no').toString('base64') });
  assert.equal(r.status, 400);
  assert.equal((await json(r)).error?.code, 'invalid_image');
  const png = await json(await post('/api/packs/image', { pack: 'crew', data: PNG_1PX.toString('base64') }));
  assert.equal((png.character as { mime: string }).mime, 'image/png');
  assert.equal((await post('/api/packs/emoji', { pack: 'crew', emoji: '🐈', name: 'x'.repeat(61) })).status, 400);
  // Other pack routes keep the 64 KiB limit.
  assert.equal((await post('/api/packs/emoji', { pack: 'crew', emoji: '🐈', pad: 'x'.repeat(70 * 1024) })).status, 413);
});

test('characters: assign, override, active; each change is published', async () => {
  const seen: string[] = [];
  const off = bus.subscribe((e) => seen.push(e.type));
  const board = await json(await get('/api/characters'));
  const crew = (board.packs as { id: string; characters: { id: string }[] }[]).find((p) => p.id === 'crew');
  const character = crew?.characters[0]?.id;
  assert.ok(character);
  const a = await json(await post('/api/characters/assign', { harness: 'pi', pack: 'crew', character }));
  assert.deepEqual((a.assignments as Record<string, unknown>).pi, { pack: 'crew', character });
  const o = await json(await post('/api/characters/override', { sessionId: '40437031-5c17-43a7-8062-c5f8980812c9', pack: 'crew', character }));
  assert.ok((o.overrides as Record<string, unknown>)['40437031-5c17-43a7-8062-c5f8980812c9']);
  const c = await json(await post('/api/characters/assign', { harness: 'pi', clear: true }));
  assert.equal((c.assignments as Record<string, unknown>).pi, undefined);
  assert.equal((await json(await post('/api/characters/active', { pack: 'crew' }))).active, 'crew');
  assert.equal((await post('/api/characters/active', { pack: 'nope' })).status, 404);
  assert.equal((await post('/api/packs/delete', { pack: 'critters' })).status, 409);
  off();
  assert.equal(seen.filter((t) => t === 'board.characters.changed').length, 4);
});

test('scene: save, load, files; malformed elements are a 400', async () => {
  const save = await post('/api/scene', { elements: [{ id: 'r', type: 'rectangle', x: 1, y: 2, width: 3, height: 4 }], positions: {}, appState: { scrollX: 1 } });
  assert.equal(save.status, 200);
  const scene = (await json(await get('/api/scene'))).scene as { elements: unknown[]; version: number };
  assert.equal(scene.elements.length, 1);
  const bad = await post('/api/scene', { elements: [{ id: 'r', type: 'rectangle', x: 'left' }] });
  assert.equal(bad.status, 400);
  assert.equal((await json(bad)).error?.code, 'invalid_scene');
  assert.deepEqual((await json(await post('/api/scene/files', { ids: ['nope'] }))).files, {});
});

test('packFilePath: exactly two decoded parts', () => {
  assert.deepEqual(packFilePath('/api/packs/a/b.png'), { pack: 'a', file: 'b.png' });
  assert.throws(() => packFilePath('/api/packs/a/%zz'), /percent/);
  assert.throws(() => packFilePath('/api/packs/a/b%2fc'), /no such/);
});

test('POST /api/packs with `from` copies the pack: its characters and image files, builtin or uploaded', async () => {
  const crew = ((await json(await get('/api/characters'))).packs as { id: string; characters: { id: string; file?: string; hash?: string }[] }[]).find((p) => p.id === 'crew');
  assert.ok(crew && crew.characters.some((c) => c.file));
  const r = await json(await post('/api/packs', { name: 'Crew Two', from: 'crew' }));
  assert.equal(r.ok, true, JSON.stringify(r));
  const copy = r.pack as { id: string; characters: { id: string; file?: string; hash?: string }[] };
  assert.equal(copy.id, 'crew-two');
  assert.deepEqual(copy.characters, crew.characters);
  const image = crew.characters.find((c) => c.file);
  const served = await get(`/api/packs/crew-two/${image?.file}?v=${image?.hash}`);
  assert.equal(served.status, 200, 'the copy serves its own copy of the image');
  const builtin = await json(await post('/api/packs', { from: 'dots' }));
  assert.equal((builtin.pack as { name: string }).name, 'Dots copy');
  assert.equal((builtin.pack as { characters: unknown[] }).characters.length, HARNESSES.length, 'one dot per harness');

  const unknown = await post('/api/packs', { name: 'x', from: 'no-such-pack' });
  assert.equal(unknown.status, 404);
  assert.equal((await json(unknown)).error?.code, 'pack_not_found');
  for (const from of ['../crew', 7, null, '']) {
    const bad = await post('/api/packs', { name: 'x', from });
    assert.equal(bad.status, 400, `from ${JSON.stringify(from)}`);
    assert.equal((await json(bad)).error?.code, 'invalid_argument');
  }
  const names = ((await json(await get('/api/characters'))).packs as { id: string }[]).map((p) => p.id);
  assert.ok(!names.includes('x'), 'a refused copy creates nothing');
});
