// Build: bundle the CLI/daemon with esbuild (fast start: one file plus lazily loaded chunks), then the
// board with Vite. Run by `npm install` (prepare) and `npm test`.
import { build } from 'esbuild';
import { rmSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
if (existsSync('web/index.html')) {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
}
console.log('built dist/cli.js and dist/web');
