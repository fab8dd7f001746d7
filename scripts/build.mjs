// Build: bundle the CLI/daemon with esbuild (fast start: one file plus lazily loaded chunks), then the
// board with Vite. Run by `npm install` (prepare) and `npm test`.
import { build } from 'esbuild';
import { rmSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

// --if-stale: skip when dist/ is newer than every input (the test scripts build first; CI's
// `npm ci` has already built, and the board's Vite build costs most of a minute each time).
if (process.argv.includes('--if-stale') && existsSync('dist/cli.js') && existsSync('dist/web/index.html')) {
  const newest = (p) => {
    const st = statSync(p);
    if (!st.isDirectory()) return st.mtimeMs;
    return Math.max(st.mtimeMs, ...readdirSync(p).map((n) => newest(join(p, n))));
  };
  const built = Math.min(statSync('dist/cli.js').mtimeMs, statSync('dist/web/index.html').mtimeMs);
  const inputs = Math.max(...['src', 'web', 'scripts', 'package.json', 'package-lock.json'].filter(existsSync).map(newest));
  if (inputs < built) {
    console.log('dist/ is up to date');
    process.exit(0);
  }
}

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // hono and its Node adapter are bundled (fewer module loads at daemon start); the native SQLite driver
  // cannot be, and the MCP SDK with zod is loaded only on the first /mcp request, from node_modules.
  external: ['better-sqlite3', '@modelcontextprotocol/sdk', 'zod'],
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
if (existsSync('web/index.html')) {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
}
console.log('built dist/cli.js and dist/web');
