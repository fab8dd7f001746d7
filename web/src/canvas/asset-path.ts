/**
 * Where Excalidraw loads its fonts from: our own origin (the build copies them under
 * /assets/excalidraw-<version>/), never a CDN. Imported before Excalidraw so it is set before any
 * font is registered. `__EXCALIDRAW_VERSION__` is defined by web/vite.config.ts.
 */
declare const __EXCALIDRAW_VERSION__: string;
(window as unknown as { EXCALIDRAW_ASSET_PATH: string }).EXCALIDRAW_ASSET_PATH = `/assets/excalidraw-${__EXCALIDRAW_VERSION__}/`;
export {};
