// The built pi/omp extension (dist/status-assets/, as the wrapper and hooks install ship it) reads the
// token file itself: an empty or malformed file is no token, so it posts nothing and its pager tools say
// Muster is unreachable.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readStatusAsset } from '../status-assets/index.ts';
import { pointReportersAt } from '../status-assets/daemon-env.test-support.ts';

type Handler = (event: unknown, ctx: unknown) => Promise<unknown>;
interface Tool { name: string; execute(id: string, params: unknown, signal?: AbortSignal, onUpdate?: unknown, ctx?: unknown): Promise<{ isError?: boolean; content: { text: string }[] }> }

describe('pi/omp extension: the token file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'muster-ext-'));
  const tokenFile = join(dir, 'token');
  const auths: string[] = [];
  const posts: { url: string; body: string }[] = [];
  let server: Server;
  const handlers = new Map<string, Handler>();
  const tools = new Map<string, Tool>();
  let restoreEnv = (): void => {};

  before(async () => {
    server = createServer((req, res) => {
      auths.push(req.headers.authorization ?? '');
      let body = '';
      req.on('data', (c: Buffer) => void (body += c.toString()));
      req.on('end', () => {
        posts.push({ url: req.url ?? '', body });
        const answer = req.url === '/api/search' ? '{"ok":true,"results":[{"session":{"harness":"pi","id":"x"},"hits":[]}]}' : '{"ok":true,"page":{"id":"pag_x","status":"sent"}}';
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    restoreEnv = pointReportersAt(`http://127.0.0.1:${(server.address() as { port: number }).port}/api`, tokenFile);
    const file = join(dir, 'muster-pi.mjs');
    writeFileSync(file, readStatusAsset('pi-extension'));
    const mod = (await import(pathToFileURL(file).href)) as { default(pi: unknown): void };
    mod.default({ on: (name: string, h: Handler) => handlers.set(name, h), registerTool: (t: Tool) => tools.set(t.name, t) });
  });
  after(() => {
    server.close();
    restoreEnv();
    rmSync(dir, { recursive: true, force: true });
  });

  it('posts nothing with an empty or malformed token file; posts with a well-formed one', async () => {
    for (const bad of ['', '\n', 'abc']) {
      writeFileSync(tokenFile, bad);
      await handlers.get('session_shutdown')!({}, {});
      const notify = await tools.get('notify_operator')!.execute('1', { message: 'hi', level: 'info' }, undefined, undefined, {});
      assert.equal(notify.isError, true);
      assert.match(notify.content[0]!.text, /daemon_unreachable/);
    }
    assert.deepEqual(auths, [], 'no request carried an empty or malformed token');
    const good = 'G'.repeat(43);
    writeFileSync(tokenFile, `${good}\n`);
    await handlers.get('session_shutdown')!({}, {});
    assert.deepEqual(auths, [`Bearer ${good}`]);
  });

  it('registers search_sessions, which posts the tool arguments to its REST twin and returns its results', async () => {
    writeFileSync(tokenFile, `${'G'.repeat(43)}\n`);
    const search = tools.get('search_sessions');
    assert.ok(search, [...tools.keys()].join(', '));
    const r = await search.execute('1', { query: 'flaky login', limit: 3 }, undefined, undefined, {});
    assert.ok(!r.isError, r.content[0]?.text);
    assert.deepEqual(JSON.parse(r.content[0]!.text), { results: [{ session: { harness: 'pi', id: 'x' }, hits: [] }] });
    const post = posts.find((p) => p.url === '/api/search');
    assert.deepEqual(JSON.parse(post!.body), { query: 'flaky login', limit: 3 });
  });
});
