import { defineConfig } from 'vite';

// The board: built into dist/web at install time, served by the daemon with hashed, immutable assets.
export default defineConfig({
  root: 'web',
  base: '/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // No inline scripts or data: modules: the CSP forbids them.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
