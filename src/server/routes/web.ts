/**
 * The board's static files, built by Vite into dist/web at install time. The files are listed once at
 * start into a map keyed by their served path, so no request path ever reaches the filesystem; each
 * file is read on its first request and kept (the canvas's lazy chunks and fonts are megabytes that
 * most sessions never load, and reading them all delayed the daemon's start by a quarter second).
 * Hashed assets are immutable-cached; the page itself is never cached. Strict CSP: no inline script,
 * no remote origin.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { App } from '../env.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
};

/** The page's CSP. `style-src 'unsafe-inline'` is for React style attributes; scripts stay strictly 'self'. */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

interface Asset { file: string; body: Uint8Array<ArrayBuffer> | null; type: string; immutable: boolean }

function listAssets(root: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const name = entry.name;
      const full = join(dir, name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const rel = relative(root, full).split(sep).join('/');
        out.set(`/${rel}`, { file: full, body: null, type: TYPES[extname(name)] ?? 'application/octet-stream', immutable: rel.startsWith('assets/') });
      }
    }
  };
  try {
    walk(root);
  } catch {
    // Not built: the fallback page below says how to build it.
  }
  return out;
}

const FALLBACK = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Muster</title></head>
<body><h1>Muster</h1><p>The board's web assets are not built. Run <code>npm run build</code> and reload.</p></body></html>`;

export function webRoutes(opts: { webRoot: string }) {
  const assets = listAssets(opts.webRoot);
  return (app: App) => {
    app.get('*', async (c, next) => {
      const path = new URL(c.req.url).pathname;
      if (path.startsWith('/api/') || path === '/mcp') return next();
      const asset = assets.get(path === '/' ? '/index.html' : path);
      const common = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
      if (!asset) {
        if (path !== '/') return next();
        return c.html(FALLBACK, 200, { ...common, 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' });
      }
      const headers: Record<string, string> = {
        ...common,
        'content-type': asset.type,
        'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
      };
      if (asset.type.startsWith('text/html')) headers['content-security-policy'] = PAGE_CSP;
      // Copied into an exactly sized buffer of its own: small reads share Node's pooled ArrayBuffer. Served
      // as the Uint8Array, which the Node adapter writes at once; an ArrayBuffer body went through a web
      // byte stream, whose read detaches a buffer and makes V8 drop the daemon thread's optimised Buffer
      // code (a cold index's fold, while the board is opened to watch it).
      asset.body ??= new Uint8Array(readFileSync(asset.file));
      return c.body(asset.body, 200, headers);
    });
  };
}
