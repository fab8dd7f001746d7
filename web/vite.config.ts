import { defineConfig, type Plugin } from 'vite';
import { cpSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The board: built into dist/web at install time, served by the daemon with hashed, immutable assets.
const excalidrawDir = fileURLToPath(new URL('../node_modules/@excalidraw/excalidraw/', import.meta.url));
const excalidrawVersion = (JSON.parse(readFileSync(`${excalidrawDir}package.json`, 'utf8')) as { version: string }).version;

/** Self-hosts Excalidraw's fonts (it would fetch them from a CDN otherwise): copied under a versioned, immutable path. */
function excalidrawFonts(): Plugin {
  return {
    name: 'muster-excalidraw-fonts',
    apply: 'build',
    writeBundle(options) {
      cpSync(`${excalidrawDir}dist/prod/fonts`, `${options.dir}/assets/excalidraw-${excalidrawVersion}/fonts`, { recursive: true });
    },
  };
}

/** Fails the build when the board would bundle a test helper (`*.test-support.ts`; lint forbids the import too). */
function noTestSupport(): Plugin {
  return {
    name: 'muster-no-test-support',
    load(id) {
      if (/\.test-support\.[cm]?[jt]sx?$/.test(id)) this.error(`${id} is a test helper; production code must not import it`);
      return null;
    },
  };
}

export default defineConfig({
  root: 'web',
  base: '/',
  esbuild: { jsx: 'automatic' },
  define: {
    // Excalidraw reads this at build time (its Vite guidance); we ship React, not Preact.
    'process.env.IS_PREACT': JSON.stringify('false'),
    __EXCALIDRAW_VERSION__: JSON.stringify(excalidrawVersion),
  },
  plugins: [noTestSupport(), excalidrawFonts()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // No inline scripts or data: modules: the CSP forbids them.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 4000,
  },
});
