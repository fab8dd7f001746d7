/**
 * Board weight (issue 5 benchmark): gzipped JS the browser loads before the canvas is opened (the
 * entry and its static imports; target <= 200 KB), and the canvas chunk's own size (what opening
 * the canvas adds). Reads the built board in dist/web.   Run: node --import tsx bench/board-size.ts
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const WEB = fileURLToPath(new URL('../dist/web/', import.meta.url));
const LIMIT = 200 * 1024;

const gz = (file: string) => gzipSync(readFileSync(join(WEB, file))).length;
/** The static import closure of a chunk (relative `import … from "./x.js"` and bare `import "./x.js"`). */
function closure(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = readFileSync(join(WEB, entry), 'utf8');
  for (const m of text.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([\w.-]+\.js)["']/g)) closure(`assets/${m[1]}`, seen);
  return seen;
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (!existsSync(join(WEB, 'index.html'))) {
  console.error('dist/web is not built: run `npm run build` first');
  process.exit(1);
}
const html = readFileSync(join(WEB, 'index.html'), 'utf8');
const entries = [...html.matchAll(/<script[^>]+src="\/(assets\/[^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="\/(assets\/[^"]+\.js)"/g)].map((m) => (m[1] ?? m[2]) as string);
const initial = new Set<string>();
for (const e of entries) for (const f of closure(e)) initial.add(f);
const initialGz = [...initial].reduce((n, f) => n + gz(f), 0);
const css = [...html.matchAll(/href="\/(assets\/[^"]+\.css)"/g)].reduce((n, m) => n + gz(m[1] as string), 0);

// The entry's dynamic imports (App.tsx: lazy(() => import('./canvas/canvas-view.tsx')), and ./spend/spend-view.tsx).
const dynamic = [...initial].flatMap((f) => [...readFileSync(join(WEB, f), 'utf8').matchAll(/import\(\s*["']\.\/([\w.-]+\.js)["']\s*\)/g)].map((m) => m[1] as string));
// Rollup names the canvas chunk after a module inside it, so it is the dynamic import that is not the Spend view.
const canvasEntry = dynamic.find((f) => !f.startsWith('spend-view'));
const spendEntry = dynamic.find((f) => f.startsWith('spend-view'));
let canvasGz = 0;
if (canvasEntry) for (const f of closure(`assets/${canvasEntry}`)) if (!initial.has(f)) canvasGz += gz(f);
let spendGz = 0;
if (spendEntry) for (const f of closure(`assets/${spendEntry}`)) if (!initial.has(f)) spendGz += gz(f);
const lazyTotal = readdirSync(join(WEB, 'assets')).filter((f) => f.endsWith('.js') && !initial.has(`assets/${f}`)).reduce((n, f) => n + gz(`assets/${f}`), 0);

console.log(`JS before the canvas opens: ${kb(initialGz)} gzipped in ${initial.size} file(s) (target <= ${kb(LIMIT)}) ${initialGz <= LIMIT ? 'OK' : 'OVER'}`);
console.log(`CSS before the canvas opens: ${kb(css)} gzipped`);
console.log(`canvas chunk (Excalidraw and its static imports, loaded on open): ${canvasEntry ? kb(canvasGz) : 'not found'} gzipped`);
console.log(`Spend view chunk (loaded when the Spend view opens): ${spendEntry ? kb(spendGz) : 'not found'} gzipped${spendEntry && [...initial].some((f) => f.includes('spend-view')) ? ' — ERROR: in the initial load' : ''}`);
console.log(`every other lazy chunk (locales, diagram parsers Excalidraw loads on demand): ${kb(lazyTotal)} gzipped in total`);
if (initialGz > LIMIT) process.exitCode = 1;
