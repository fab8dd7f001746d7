/** Test-only: a board wired to a real SQLite store and real pack files in a temp dir, and tiny images. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore, createFsPackFiles, type Store } from '../store/index.ts';
import { createCharacterService, type CharacterService } from './characters.ts';
import { createSceneService, type SceneService } from './scene-service.ts';

export interface BoardFixture {
  dir: string;
  store: Store;
  characters: CharacterService;
  scene: SceneService;
  cleanup(): void;
}

export function createBoardFixture(): BoardFixture {
  const dir = mkdtempSync(join(tmpdir(), 'muster-board-'));
  const store = openSqliteStore({ path: join(dir, 'muster.db') });
  const characters = createCharacterService({ repo: store.board, files: createFsPackFiles(join(dir, 'packs')) });
  const scene = createSceneService({ repo: store.board });
  return { dir, store, characters, scene, cleanup: () => (store.close(), rmSync(dir, { recursive: true, force: true })) };
}

/** A valid 1x1 PNG. */
export const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
export const GIF_1PX = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
export const SVG_WITH_SCRIPT = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>document.title="pwned"</script><rect width="10" height="10" fill="red"/></svg>');
