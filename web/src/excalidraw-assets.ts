/**
 * Where Excalidraw loads its fonts from: our own origin (the build copies them under
 * /assets/excalidraw-<version>/), never its CDN. Set at start-up, in the entry chunk: Excalidraw
 * reads it when its own chunk is evaluated, which happens before the canvas chunk's body runs.
 * `__EXCALIDRAW_VERSION__` is defined by web/vite.config.ts.
 */
declare const __EXCALIDRAW_VERSION__: string;
(window as unknown as { EXCALIDRAW_ASSET_PATH: string }).EXCALIDRAW_ASSET_PATH = `/assets/excalidraw-${__EXCALIDRAW_VERSION__}/`;
export {};
