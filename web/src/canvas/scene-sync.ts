/**
 * Loading and saving the one scene: elements, app state, character positions and image files.
 * Saves are debounced and carry only the image files the daemon does not have yet.
 */
import { api } from '../api.ts';
import type { Position, Scene, SceneFile } from '../types.ts';

export interface LoadedScene {
  scene: Scene;
  files: Record<string, SceneFile>;
}

export async function loadScene(): Promise<LoadedScene> {
  const { scene } = await api<{ scene: Scene }>('GET', '/api/scene');
  const files: Record<string, SceneFile> = {};
  for (let i = 0; i < scene.fileIds.length; i += 100) {
    const r = await api<{ files: Record<string, SceneFile> }>('POST', '/api/scene/files', { ids: scene.fileIds.slice(i, i + 100) });
    Object.assign(files, r.files);
  }
  return { scene, files };
}

export interface SaveInput {
  elements: readonly Record<string, unknown>[];
  appState: Record<string, unknown>;
  positions: Record<string, Position>;
  files: Record<string, { mimeType: string; dataURL: string }>;
}

export interface SceneSaver {
  /** Schedules a save of this state (the latest call wins). */
  schedule(input: SaveInput): void;
  /** Saves now what is scheduled (on unmount / page hide). */
  flush(): Promise<void>;
  /** The last save error, shown by the view. */
  onError(fn: (message: string | null) => void): void;
}

export function createSceneSaver(known: Iterable<string>, delayMs = 500): SceneSaver {
  const uploaded = new Set(known);
  let pending: SaveInput | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  let report: (m: string | null) => void = () => {};
  const send = (input: SaveInput) => {
    const live = input.elements.filter((e) => e.isDeleted !== true);
    const files: SaveInput['files'] = {};
    for (const e of live) {
      const id = e.fileId;
      if (typeof id === 'string' && !uploaded.has(id) && input.files[id]) files[id] = { mimeType: input.files[id].mimeType, dataURL: input.files[id].dataURL };
    }
    chain = chain
      .then(() => api('POST', '/api/scene', { elements: live, appState: input.appState, positions: input.positions, files }))
      .then(() => {
        for (const id of Object.keys(files)) uploaded.add(id);
        report(null);
      })
      .catch((e: Error) => report(`The scene was not saved: ${e.message}`));
    return chain;
  };
  return {
    schedule(input) {
      pending = input;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        const p = pending;
        pending = null;
        if (p) void send(p);
      }, delayMs);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = null;
      const p = pending;
      pending = null;
      await (p ? send(p) : chain);
    },
    onError(fn) {
      report = fn;
    },
  };
}
