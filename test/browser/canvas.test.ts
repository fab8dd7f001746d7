// The canvas view in chromium (issue 5 §3, §8): Excalidraw lazy-loaded with self-hosted fonts,
// characters as controls, an uploaded image character, drag → reload → same place, a drawn
// rectangle survives a reload, an uploaded SVG opened directly runs nothing, no foreign request.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { foreignRequests, screenshot, spawnFakeClaude, startBoard, writeClaudeSession, type BoardRig, waitInPage } from './browser-kit.ts';
import { PNG_1PX, SVG_WITH_SCRIPT } from '../../src/board/board-fixtures.test-support.ts';

const A = { id: '40437031-5c17-43a7-8062-c5f8980812c9', cwd: '/home/dev/muster', title: 'Board canvas' };
const B = { id: '2e0e7aa2-3d62-481c-8a50-166cd0ac192f', cwd: '/home/dev/muster', title: 'Pager inbox', ts: '2026-11-29T10:00:00.000Z' };
const C = { id: '7d2f4c1e-0b7a-4e55-9a51-3f7c2b8e9d10', cwd: '/home/dev/website', title: 'Pricing page', ts: '2026-11-28T10:00:00.000Z' };

interface SceneBody { scene: { elements: { type: string; isDeleted?: boolean }[]; positions: Record<string, { x: number; y: number }>; version: number } }

describe('board: canvas view in chromium', () => {
  let rig: BoardRig;
  let claude: ChildProcess;
  const scene = async (): Promise<SceneBody['scene']> => ((await (await rig.page.request.get(`${rig.base}/api/scene`)).json()) as SceneBody).scene;
  const waitScene = async (ok: (s: SceneBody['scene']) => boolean, what: string) => {
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      if (ok(await scene())) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`the scene was not saved: ${what}`);
  };
  const character = (id: string) => rig.page.locator(`[data-testid="character"][data-key="claude:${id}"]`);

  before(async () => {
    claude = spawnFakeClaude();
    rig = await startBoard({
      prepare: (home) => {
        writeClaudeSession(home, { ...A, pid: claude.pid, status: 'busy' });
        writeClaudeSession(home, B);
        writeClaudeSession(home, C);
      },
    });
    await rig.page.goto(rig.boardUrl);
    await rig.page.getByTestId('connection').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
  });
  after(async () => {
    claude.kill('SIGKILL');
    await rig?.stop();
  });

  it('the canvas chunk loads only when opened; characters stand on it, grouped by repo', async () => {
    const before = rig.requests.filter((u) => /excalidraw|\.woff2/i.test(u)).length;
    assert.equal(before, 0, 'nothing of Excalidraw before the canvas opens');
    await rig.page.getByTestId('view-canvas').click();
    await rig.page.locator('.excalidraw').waitFor({ timeout: 15_000 });
    await character(A.id).waitFor();
    assert.equal(await rig.page.getByTestId('character').count(), 3);
    assert.equal(await character(A.id).getAttribute('data-status'), 'working');
    const a = await character(A.id).boundingBox();
    const c = await character(C.id).boundingBox();
    assert.ok(a && c && Math.abs(c.x - a.x) > 300, 'another repo stands in another column');
  });

  it('a click on a character opens its panel', async () => {
    await character(B.id).click();
    const panel = rig.page.getByTestId('session-panel');
    await panel.waitFor();
    assert.equal(await panel.getAttribute('data-key'), `claude:${B.id}`);
    await rig.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  it('upload an image character and see it on the canvas', async () => {
    await rig.page.getByTestId('open-characters').click();
    const dialog = rig.page.getByTestId('characters-dialog');
    await dialog.getByLabel('new pack name').fill('Crew');
    await dialog.getByRole('button', { name: 'Create pack' }).click();
    await dialog.locator('[data-pack="crew"]').waitFor();
    await dialog.getByTestId('upload-crew').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG_1PX });
    await dialog.locator('[data-pack="crew"] img').waitFor();
    // A controlled radio: it turns checked when the daemon's answer comes back.
    await dialog.locator('[data-pack="crew"] input[type="radio"]').click();
    await dialog.locator('[data-pack="crew"] input[type="radio"]:checked').waitFor();
    await dialog.getByRole('button', { name: 'close' }).click();
    const img = character(A.id).locator('img');
    await img.waitFor({ timeout: 5000 });
    assert.match((await img.getAttribute('src')) ?? '', /^\/api\/packs\/crew\/[0-9a-f]{24}\.png\?v=[0-9a-f]{64}$/);
    await waitInPage(rig.page, `document.querySelector('[data-key="claude:${A.id}"] img')?.naturalWidth === 1`);
  });

  it('drag a character, reload: same place', async () => {
    const box = await character(A.id).boundingBox();
    assert.ok(box);
    const cx = box.x + box.width / 2;
    const cy = box.y + 30;
    await rig.page.mouse.move(cx, cy);
    await rig.page.mouse.down();
    for (let i = 1; i <= 10; i++) await rig.page.mouse.move(cx + i * 25, cy + i * 15);
    await rig.page.mouse.up();
    const moved = await character(A.id).boundingBox();
    assert.ok(moved && Math.abs(moved.x - box.x - 250) < 3 && Math.abs(moved.y - box.y - 150) < 3, 'it followed the pointer');
    await waitScene((s) => s.positions[`claude:${A.id}`] !== undefined, 'position');
    await rig.page.reload();
    await character(A.id).waitFor({ timeout: 15_000 });
    const after = await character(A.id).boundingBox();
    assert.ok(after && Math.abs(after.x - moved.x) < 2 && Math.abs(after.y - moved.y) < 2, `same place after reload (${JSON.stringify(after)} vs ${JSON.stringify(moved)})`);
  });

  it('draw a rectangle, reload: it is there', async () => {
    await rig.page.locator('.excalidraw').waitFor();
    // Focus the whiteboard with a click on an empty spot, then Excalidraw's own shortcut: r = rectangle.
    await rig.page.mouse.click(1000, 720);
    await rig.page.keyboard.press('r');
    await rig.page.mouse.move(950, 600);
    await rig.page.mouse.down();
    await rig.page.mouse.move(1050, 650, { steps: 6 });
    await rig.page.mouse.move(1150, 700, { steps: 6 });
    await rig.page.mouse.up();
    await waitScene((s) => s.elements.some((e) => e.type === 'rectangle' && !e.isDeleted), 'rectangle');
    await rig.page.reload();
    await character(A.id).waitFor({ timeout: 15_000 });
    assert.ok((await scene()).elements.some((e) => e.type === 'rectangle'));
    await screenshot(rig.page, 'canvas-light');
    await rig.page.emulateMedia({ colorScheme: 'dark' });
    await waitInPage(rig.page, "document.documentElement.dataset.theme === 'dark'");
    await rig.page.waitForTimeout(300);
    await screenshot(rig.page, 'canvas-dark');
  });

  it('an uploaded SVG with a script, opened directly, does not run it', async () => {
    const r = await rig.page.request.post(`${rig.base}/api/packs/image`, { headers: { origin: rig.base }, data: { pack: 'crew', data: SVG_WITH_SCRIPT.toString('base64') } });
    assert.equal(r.status(), 200);
    const { character: svg } = (await r.json()) as { character: { file: string } };
    const res = await rig.page.goto(`${rig.base}/api/packs/crew/${svg.file}`);
    assert.equal(res?.headers()['content-type'], 'image/svg+xml');
    await rig.page.waitForTimeout(200);
    assert.notEqual(await rig.page.title(), 'pwned');
    const unlisted = await rig.page.request.get(`${rig.base}/api/packs/crew/${'0'.repeat(24)}.svg`);
    assert.equal(unlisted.status(), 404);
    assert.equal((await rig.page.request.get(`${rig.base}/api/packs/crew/%E0%A4%A`)).status(), 400);
  });

  it('no request left 127.0.0.1, fonts came from our origin', () => {
    assert.deepEqual(foreignRequests(rig.requests, rig.blocked), []);
    assert.ok(rig.requests.some((u) => u.endsWith('.woff2') && new URL(u).hostname === '127.0.0.1'), 'fonts were served by the daemon');
  });
});
