// Every response over real HTTP carries the server's own headers (nosniff, no referrer; listen.ts),
// whatever made it: a JSON route, an error envelope, a 404, a raw body, a stream. And answering JSON,
// the board's files and a pack image detaches no ArrayBuffer: one detached buffer makes V8 drop the
// daemon thread's optimised Buffer code (a cold index's fold, which the board may be open to watch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import { listen } from './listen.ts';
import { MusterError } from '../errors/index.ts';

const TOKEN = 'b'.repeat(43);

function makeApp(getPort: () => number) {
  return createApp({
    token: TOKEN,
    getPort,
    logError: () => {},
    routes: [
      (a) => a.get('/api/json', (c) => c.json({ ok: true })),
      (a) => a.get('/api/refused', () => { throw new MusterError('invalid_argument', 'no'); }),
      (a) => a.get('/api/raw', () => new Response('raw text', { headers: { 'content-type': 'text/plain' } })),
      (a) =>
        a.get('/api/stream', () => {
          const body = new ReadableStream<Uint8Array>({
            start(ctl) {
              ctl.enqueue(new TextEncoder().encode('one '));
              ctl.enqueue(new TextEncoder().encode('two'));
              ctl.close();
            },
          });
          return new Response(body, { headers: { 'content-type': 'text/plain' } });
        }),
    ],
  });
}

test('every response carries nosniff and no-referrer: JSON, an error, a 404, a raw body, a stream', async () => {
  let port = 0;
  const l = await listen(makeApp(() => port), { port: 0 });
  port = l.port;
  try {
    const cases: [string, number, string][] = [
      ['/api/json', 200, '{"ok":true}'],
      ['/api/refused', 400, 'invalid_argument'],
      ['/api/nothing', 404, 'not_found'],
      ['/api/raw', 200, 'raw text'],
      ['/api/stream', 200, 'one two'],
    ];
    for (const [path, status, body] of cases) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.status, status, path);
      assert.ok((await res.text()).includes(body), path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', path);
    }
  } finally {
    await l.close();
  }
});

// Run in a child with V8's protector tracing. The protector is one per isolate and is invalidated once:
// the control at the end (a web Response read, which detaches) shows the main thread's was still
// whole. (tsx's loader thread, an isolate of its own, may say so for itself before START.)
const child = (webRoot: string) => `
import { request } from 'node:http';
const { webRoutes } = await import(${JSON.stringify(fileURLToPath(new URL('./routes/web.ts', import.meta.url)))});
const { packRoutes } = await import(${JSON.stringify(fileURLToPath(new URL('./routes/packs.ts', import.meta.url)))});
const { createBoardFixture, PNG_1PX } = await import(${JSON.stringify(fileURLToPath(new URL('../board/board-fixtures.test-support.ts', import.meta.url)))});
const { createEventBus } = await import(${JSON.stringify(fileURLToPath(new URL('../events/index.ts', import.meta.url)))});
const { createApp } = await import(${JSON.stringify(fileURLToPath(new URL('./app.ts', import.meta.url)))});
const { listen } = await import(${JSON.stringify(fileURLToPath(new URL('./listen.ts', import.meta.url)))});
let port = 0;
const board = createBoardFixture();
const app = createApp({ token: ${JSON.stringify(TOKEN)}, getPort: () => port, logError: () => {}, routes: [
  (a) => a.get('/api/health', (c) => c.json({ ok: true })),
  (a) => a.get('/api/list', (c) => c.json({ sessions: Array.from({ length: 200 }, (_, i) => ({ id: 's' + i })) })),
  webRoutes({ webRoot: ${JSON.stringify(webRoot)} }),
  packRoutes({ characters: board.characters, bus: createEventBus() }),
] });
const l = await listen(app, { port: 0 });
port = l.port;
const ask = (method, path, body) => new Promise((resolve, reject) => {
  const headers = { authorization: 'Bearer ${TOKEN}', ...(body ? { 'content-type': 'application/json' } : {}) };
  request({ port, path, method, headers }, (res) => { let text = ''; res.on('data', (d) => (text += d)); res.on('end', () => resolve({ status: res.statusCode, text })); }).on('error', reject).end(body ? JSON.stringify(body) : undefined);
});
console.log('START');
for (const path of ['/api/health', '/api/list', '/api/nothing', '/', '/assets/board.js']) console.log('answered', path, (await ask('GET', path)).status);
console.log('answered pack', (await ask('POST', '/api/packs', { name: 'Crew' })).status);
const up = JSON.parse((await ask('POST', '/api/packs/image', { pack: 'crew', name: 'dot', data: PNG_1PX.toString('base64') })).text);
console.log('answered image', (await ask('GET', '/api/packs/crew/' + up.character.file)).status);
console.log('CONTROL');
await new Response('x').text();
await l.close();
board.cleanup();
console.log('END');
`;

test('answering JSON, the board\'s files and a pack image detaches no ArrayBuffer (the trace shows one only for the control)', () => {
  const webRoot = mkdtempSync(join(tmpdir(), 'muster-web-'));
  try {
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>board</title>');
    writeFileSync(join(webRoot, 'assets', 'board.js'), 'console.log(1);'.repeat(2000));
    const r = spawnSync(process.execPath, ['--trace-protector-invalidation', '--import', 'tsx', '--input-type=module', '-e', child(webRoot)], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assertNoDetach(r.stdout);
  } finally {
    rmSync(webRoot, { recursive: true, force: true });
  }
});

function assertNoDetach(out: string): void {
  assert.match(out, /answered \/api\/health 200[\s\S]*answered \/api\/list 200[\s\S]*answered \/api\/nothing 404[\s\S]*answered \/ 200[\s\S]*answered \/assets\/board.js 200[\s\S]*answered pack 200[\s\S]*answered image 200/);
  const start = out.indexOf('START');
  const control = out.indexOf('CONTROL');
  assert.ok(start !== -1 && control > start && out.includes('END'), out);
  const said = 'Invalidating protector cell ArrayBufferDetaching';
  assert.ok(!out.slice(start, control).includes(said), `an ArrayBuffer was detached while answering:\n${out}`);
  assert.ok(out.slice(control).includes(said), `the control did not show in the trace:\n${out}`);
}
