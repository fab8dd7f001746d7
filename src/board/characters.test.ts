// Characters and packs against a real SQLite store and real files (pack files served only when their pack lists them).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createBoardFixture, GIF_1PX, PNG_1PX, SVG_WITH_SCRIPT } from './board-fixtures.test-support.ts';
import { resolveCharacter } from './resolve.ts';
import { MusterError } from '../errors/index.ts';

const f = createBoardFixture();
after(() => f.cleanup());
const SID = '40437031-5c17-43a7-8062-c5f8980812c9';
const code = (c: string) => (e: unknown) => e instanceof MusterError && e.code === c;

test('builtin packs: every harness has characters; a session keeps its character (stable hash)', async () => {
  const board = await f.characters.characters();
  assert.equal(board.active, 'critters');
  for (const harness of ['claude', 'codex', 'opencode', 'pi', 'omp'] as const) {
    const a = resolveCharacter(board, { harness, id: SID });
    assert.equal(a.character.harness, harness);
    assert.deepEqual(resolveCharacter(board, { harness, id: SID }), a);
  }
});

test('custom pack: create, add emoji and image (sniffed, content-hashed), rename, files listed only', async () => {
  const pack = await f.characters.createPack('My Crew');
  assert.equal(pack.id, 'my-crew');
  assert.equal((await f.characters.createPack('My Crew')).id, 'my-crew-2');
  const cat = await f.characters.addEmoji('my-crew', '🐈', 'cat');
  const img = await f.characters.addImage('my-crew', PNG_1PX, 'dot');
  assert.equal(img.mime, 'image/png');
  assert.match(img.file ?? '', /^[0-9a-f]{24}\.png$/);
  const gif = await f.characters.addImage('my-crew', GIF_1PX);
  assert.equal(gif.mime, 'image/gif');
  const svg = await f.characters.addImage('my-crew', SVG_WITH_SCRIPT);
  assert.equal(svg.mime, 'image/svg+xml');
  await assert.rejects(f.characters.addImage('my-crew', Buffer.from('just text, named cat.png')), code('invalid_image'));
  await assert.rejects(f.characters.addEmoji('my-crew', 'abc'), code('invalid_argument'));
  const read = await f.characters.readFile('my-crew', img.file as string);
  assert.deepEqual(Buffer.from(read?.bytes ?? []), PNG_1PX);
  assert.equal(read?.hash, img.hash);
  assert.equal(await f.characters.readFile('my-crew', 'ffffffffffffffffffffffff.png'), null, 'a file the pack does not list');
  assert.equal(await f.characters.readFile('my-crew-2', img.file as string), null, 'another pack does not list it');
  await f.characters.renamePack('my-crew', 'Night Shift');
  const board = await f.characters.characters();
  const stored = board.packs.find((p) => p.id === 'my-crew');
  assert.equal(stored?.name, 'Night Shift');
  assert.deepEqual(stored?.characters.map((c) => c.id), [cat.id, img.id, gif.id, svg.id]);
});

test('assign, override, active; removing a character clears what pointed at it', async () => {
  const board0 = await f.characters.characters();
  const crew = board0.packs.find((p) => p.id === 'my-crew');
  const cat = crew?.characters[0];
  const img = crew?.characters[1];
  assert.ok(cat && img);
  await f.characters.assign('codex', { pack: 'my-crew', character: cat.id });
  await f.characters.override(SID, { pack: 'my-crew', character: img.id });
  let board = await f.characters.characters();
  assert.equal(resolveCharacter(board, { harness: 'codex', id: '2e0e7aa2-3d62-481c-8a50-166cd0ac192f' }).via, 'assignment');
  assert.equal(resolveCharacter(board, { harness: 'claude', id: SID }).character.id, img.id);
  await f.characters.setActive('my-crew');
  board = await f.characters.characters();
  assert.equal(board.active, 'my-crew');
  await assert.rejects(f.characters.assign('bash', null), code('invalid_argument'));
  await assert.rejects(f.characters.override('not-an-id', null), code('invalid_id'));
  await assert.rejects(f.characters.assign('claude', { pack: 'my-crew', character: 'c-nope' }), code('character_not_found'));
  await assert.rejects(f.characters.renamePack('critters', 'x'), code('pack_read_only'));
  await f.characters.removeCharacter('my-crew', img.id);
  board = await f.characters.characters();
  assert.equal(board.overrides[SID], undefined);
  assert.ok(!existsSync(join(f.dir, 'packs', 'my-crew', img.file as string)), 'the file went with its last character');
});

test('deleting the active pack falls back to the builtin one and removes its files', async () => {
  await f.characters.deletePack('my-crew');
  const board = await f.characters.characters();
  assert.equal(board.active, 'critters');
  assert.equal(board.assignments.codex, undefined);
  assert.ok(!existsSync(join(f.dir, 'packs', 'my-crew')));
  assert.deepEqual(readdirSync(join(f.dir, 'packs')), []);
  await assert.rejects(f.characters.deletePack('my-crew'), code('pack_not_found'));
});

test('copyPack: a builtin pack copied whole (ids, emoji, harness families); an unknown or malformed source is refused', async () => {
  const { pack, skipped } = await f.characters.copyPack('critters');
  assert.equal(pack.name, 'Critters copy');
  assert.equal(pack.builtin, false);
  assert.deepEqual(skipped, []);
  const critters = (await f.characters.characters()).packs.find((p) => p.id === 'critters');
  const stored = (await f.characters.characters()).packs.find((p) => p.id === pack.id);
  assert.deepEqual(stored?.characters, critters?.characters, 'the same characters, in order');
  // A copy is the operator's own: it can be changed, the builtin cannot.
  await f.characters.addEmoji(pack.id, '🐈', 'cat');
  assert.equal((await f.characters.characters()).packs.find((p) => p.id === 'critters')?.characters.length, critters?.characters.length);
  await assert.rejects(f.characters.copyPack('no-such-pack', 'x'), code('pack_not_found'));
  await assert.rejects(f.characters.copyPack('../etc', 'x'), code('invalid_argument'));
  await assert.rejects(f.characters.copyPack(null, 'x'), code('invalid_argument'));
  await f.characters.deletePack(pack.id);
});

test('copyPack: an uploaded pack copied with its image files; the copy outlives its source', async () => {
  const src = await f.characters.createPack('Uploads');
  const cat = await f.characters.addEmoji(src.id, '🐈', 'cat');
  const img = await f.characters.addImage(src.id, PNG_1PX, 'dot');
  const { pack } = await f.characters.copyPack(src.id, 'Uploads Two');
  assert.equal(pack.id, 'uploads-two');
  assert.deepEqual(pack.characters.map((c) => c.id), [cat.id, img.id]);
  assert.ok(existsSync(join(f.dir, 'packs', 'uploads-two', img.file as string)), 'the image file was copied');
  await f.characters.deletePack(src.id);
  const read = await f.characters.readFile('uploads-two', img.file as string);
  assert.deepEqual(Buffer.from(read?.bytes ?? []), PNG_1PX, 'served from the copy after the source is gone');
  // A source image whose file vanished is left out and named, not copied as a dead character.
  const gone = await f.characters.addImage('uploads-two', GIF_1PX, 'gone');
  rmSync(join(f.dir, 'packs', 'uploads-two', gone.file as string));
  const again = await f.characters.copyPack('uploads-two', 'Third');
  assert.deepEqual(again.skipped, [gone.id]);
  assert.deepEqual(again.pack.characters.map((c) => c.id), [cat.id, img.id]);
  await f.characters.deletePack('uploads-two');
  await f.characters.deletePack('third');
});
