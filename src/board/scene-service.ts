/** The one saved scene of the canvas view: drawings, notes, character positions and image files. */
import { MusterError } from '../errors/index.ts';
import type { BoardRepository } from './ports.ts';
import { sceneFileIds, validateScene } from './scene.ts';
import type { Scene, SceneFile } from './types.ts';

export interface SceneService {
  get(): Promise<Scene>;
  /** Validates (400 `invalid_scene` when malformed) and replaces the scene; returns it. */
  save(body: Record<string, unknown>): Promise<Scene>;
  /** Files by id (at most 100 ids per call); unknown ids are simply absent from the answer. */
  files(ids: unknown): Promise<Record<string, SceneFile>>;
}

export function createSceneService(options: { repo: BoardRepository; clock?: () => number }): SceneService {
  const { repo } = options;
  const withIds = (s: Awaited<ReturnType<BoardRepository['getScene']>>): Scene => ({ ...s, fileIds: sceneFileIds(s.elements) });
  return {
    async get() {
      return withIds(await repo.getScene());
    },
    async save(body) {
      const v = validateScene(body);
      if (!v.ok) throw new MusterError('invalid_scene', v.error);
      const at = new Date((options.clock ?? Date.now)()).toISOString();
      const { files, ...scene } = v.value;
      return withIds(await repo.saveScene(scene, files, at));
    },
    async files(ids) {
      if (!Array.isArray(ids) || ids.length > 100 || !ids.every((x) => typeof x === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(x))) {
        throw new MusterError('invalid_argument', 'ids must be an array of at most 100 file ids');
      }
      // Keyed by ids the client chose: fromEntries makes each an own property, so an id such as
      // `__proto__` is answered like any other instead of replacing the answer's prototype.
      return Object.fromEntries((await repo.sceneFiles(ids as string[])).map((f) => [f.id, f]));
    },
  };
}
