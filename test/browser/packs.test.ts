// Character packs in chromium (issue 13 point 19): "Duplicate" on a pack makes a new pack holding a
// copy of its characters — an uploaded image served from the copy, a builtin pack's emoji with their
// harness families — that the operator can then change.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBoard, waitInPage, type BoardRig } from './browser-kit.ts';
import { PNG_1PX } from '../../src/board/board-fixtures.test-support.ts';

interface PackBody { id: string; name: string; builtin: boolean; characters: { id: string; emoji?: string; file?: string; harness?: string }[] }

describe('board: duplicating a character pack', () => {
  let rig: BoardRig;
  const packs = async (): Promise<PackBody[]> => ((await (await rig.page.request.get(`${rig.base}/api/characters`)).json()) as { packs: PackBody[] }).packs;
  const dialog = () => rig.page.getByTestId('characters-dialog');
  const pack = (id: string) => dialog().locator(`[data-pack="${id}"]`);

  before(async () => {
    rig = await startBoard();
    await rig.page.goto(rig.boardUrl);
    await rig.page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
    await rig.page.getByTestId('open-characters').click();
  });
  after(async () => {
    await rig?.stop();
  });

  it('Duplicate on an uploaded pack: a new pack with the same characters, its image served from the copy', async () => {
    await dialog().getByLabel('new pack name').fill('Crew');
    await dialog().getByRole('button', { name: 'Create pack' }).click();
    await pack('crew').waitFor();
    await dialog().getByTestId('upload-crew').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG_1PX });
    await pack('crew').locator('img').waitFor();
    await pack('crew').getByRole('button', { name: 'Duplicate' }).click();
    await pack('crew-copy').waitFor({ timeout: 5_000 });
    assert.match((await pack('crew-copy').textContent()) ?? '', /Crew copy/);
    const img = pack('crew-copy').locator('img');
    await img.waitFor();
    assert.match((await img.getAttribute('src')) ?? '', /^\/api\/packs\/crew-copy\/[0-9a-f]{24}\.png\?v=[0-9a-f]{64}$/);
    await waitInPage(rig.page, `document.querySelector('[data-pack="crew-copy"] img')?.naturalWidth === 1`);
    const [crew, copy] = ['crew', 'crew-copy'].map((id) => packs().then((all) => all.find((p) => p.id === id)));
    assert.deepEqual((await copy)?.characters, (await crew)?.characters);
  });

  it('Duplicate on a builtin pack: an editable copy of its emoji, the builtin unchanged', async () => {
    await pack('critters').getByRole('button', { name: 'Duplicate' }).click();
    await pack('critters-copy').waitFor({ timeout: 5_000 });
    const all = await packs();
    const critters = all.find((p) => p.id === 'critters');
    const copy = all.find((p) => p.id === 'critters-copy');
    assert.equal(copy?.builtin, false);
    assert.deepEqual(copy?.characters, critters?.characters, 'emoji, names and harness families copied');
    assert.equal(await pack('critters-copy').locator('.pack-char').count(), critters?.characters.length);
    // The copy takes emoji like any pack of the operator's; the builtin has no such control.
    await pack('critters-copy').getByLabel('emoji').fill('🐈');
    await pack('critters-copy').getByRole('button', { name: 'Add emoji' }).click();
    await pack('critters-copy').locator('.pack-char').nth(critters?.characters.length ?? 0).waitFor();
    assert.equal(await pack('critters').getByRole('button', { name: 'Add emoji' }).count(), 0);
    assert.equal((await packs()).find((p) => p.id === 'critters')?.characters.length, critters?.characters.length);
  });
});
