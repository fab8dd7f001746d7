// Build: bundle the CLI/daemon with esbuild (fast start: one file plus lazily loaded chunks), then the
// board with Vite. Run by `npm install` (prepare) and `npm test`.
import { build } from 'esbuild';
import { rmSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** Fails the build when anything would bundle a test helper (`*.test-support.ts`; lint forbids the import too). */
const noTestSupport = {
  name: 'no-test-support',
  setup(b) {
    b.onLoad({ filter: /\.test-support\.[cm]?[jt]sx?$/ }, (args) => ({ errors: [{ text: `${args.path} is a test helper; production code must not import it` }] }));
  },
};

rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // hono and its Node adapter are bundled (fewer module loads at daemon start); the native SQLite driver
  // cannot be, the MCP SDK with zod is loaded only on the first /mcp request, and the PostgreSQL client
  // (`pg`, CommonJS with an optional native binding) only once a host joins a fleet — all from node_modules.
  external: ['better-sqlite3', '@modelcontextprotocol/sdk', 'zod', 'pg'],
  sourcemap: true,
  plugins: [noTestSupport],
  logLevel: 'warning',
};
await build({
  ...common,
  // The search thread is an entry of its own (dist/search-writer.js), sharing chunks with the CLI.
  entryPoints: { cli: 'src/cli/entry.ts', 'search-writer': 'src/store/search-thread/worker.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
// The cold index's worker thread is one file (dist/index-worker.js): it starts while a first start
// folds, and one module loads faster than the eighteen chunks it would share with the CLI (a new
// worker answered its first message in ~68 ms instead of ~90 ms here).
await build({ ...common, entryPoints: { 'index-worker': 'src/harnesses/index-worker.ts' }, outdir: 'dist' });
assertOneByteBundles(['dist', 'dist/chunks']);
await buildStatusAssets();
if (existsSync('web/index.html')) {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
}
console.log('built dist/cli.js, dist/status-assets and dist/web');

/**
 * Fails the build when a bundle the CLI, the daemon or its threads load holds a character beyond Latin-1.
 * esbuild escapes them in strings, but keeps comments (on class fields, for one) and regular
 * expressions as written, and V8 keeps a module's whole source in memory as two-byte text when one
 * character of it is not Latin-1: one ellipsis in a comment made the daemon's 390 KB chunk take
 * 790 KB of its heap. Write `...`, `:` or `\u2026` instead.
 */
function assertOneByteBundles(dirs) {
  const found = [];
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.js')) continue;
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      let at = 0;
      while (at < text.length && text.charCodeAt(at) <= 0xff) at++;
      if (at === text.length) continue;
      const before = text.slice(0, at);
      const line = before.split('\n').length;
      const lineText = text.split('\n')[line - 1].trim().slice(0, 120);
      found.push(`${file}:${line}: ${lineText}`);
    }
  }
  if (found.length > 0) {
    throw new Error(`characters beyond Latin-1 in the bundles (V8 would keep each such module's source as two-byte text):\n  ${found.join('\n  ')}`);
  }
}

/**
 * The status plugin and extension Muster drops into harnesses (src/harnesses/status-assets/): each a
 * self-contained ES module that the harness loads in its own process, so everything it imports is
 * bundled in. The pager tools' JSON Schema comes from their one zod definition, generated here.
 */
async function buildStatusAssets() {
  const tmp = 'dist/.status-asset-facts.mjs';
  await build({ entryPoints: ['src/harnesses/status-assets/build-facts.ts'], outfile: tmp, bundle: true, format: 'esm', platform: 'node', target: 'node20', external: ['zod'], plugins: [noTestSupport], logLevel: 'warning' });
  const { STATUS_MARKER: marker, pagerToolSpecs, searchToolSpec } = await import(pathToFileURL(resolve(tmp)).href);
  const tools = pagerToolSpecs();
  const searchTool = searchToolSpec();
  rmSync(tmp);
  const assets = [
    { name: 'pi-extension', entry: 'src/harnesses/pi/extension.ts', define: { MUSTER_HARNESS: '"pi"' } },
    { name: 'omp-extension', entry: 'src/harnesses/pi/extension.ts', define: { MUSTER_HARNESS: '"omp"' } },
    { name: 'opencode-plugin', entry: 'src/harnesses/opencode/plugin.ts', define: {} },
  ];
  for (const a of assets) {
    await build({
      entryPoints: [a.entry],
      outfile: `dist/status-assets/${a.name}.js`,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // pi loads it through jiti, OpenCode and omp through Bun: plain ESM with node: built-ins only.
      define: { ...a.define, MUSTER_PAGER_TOOLS: JSON.stringify(tools), MUSTER_SEARCH_TOOL: JSON.stringify(searchTool) },
      banner: { js: marker },
      legalComments: 'none',
      plugins: [noTestSupport],
      logLevel: 'warning',
    });
  }
}
