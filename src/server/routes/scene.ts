/**
 * The canvas scene: GET /api/scene, POST /api/scene (validated: 400 `invalid_scene` when malformed),
 * POST /api/scene/files (the scene's image files by id). A save is published as `board.scene.saved`.
 */
import type { SceneService } from '../../board/index.ts';
import type { EventBus } from '../../events/index.ts';
import { readJsonObject } from '../body.ts';
import type { App } from '../env.ts';

/** A save carries the elements plus only the image files the daemon does not have yet. */
export const SCENE_BODY_LIMIT = 8 * 1024 * 1024;

export function sceneRoutes(opts: { scene: SceneService; bus: EventBus }) {
  return (app: App) => {
    app.get('/api/scene', async (c) => c.json({ ok: true, scene: await opts.scene.get() }));
    app.post('/api/scene', async (c) => {
      const scene = await opts.scene.save(await readJsonObject(c, SCENE_BODY_LIMIT));
      opts.bus.publish('board.scene.saved', { version: scene.version });
      return c.json({ ok: true, version: scene.version, updatedAt: scene.updatedAt });
    });
    app.post('/api/scene/files', async (c) => {
      const body = await readJsonObject(c);
      return c.json({ ok: true, files: await opts.scene.files(body.ids) });
    });
  };
}
