/**
 * The daemon's HTTP app (Hono, Web-standard handlers: a route test is `await app.request(...)`).
 * Every route sits behind the guards; one error serializer renders every failure; unknown routes
 * are a JSON 404. No stack ever leaves the process.
 */
import { Hono, type Context } from 'hono';
import { MusterError, toErrorEnvelope } from '../errors/index.ts';
import { createGuards } from './guards.ts';
import type { AppEnv, App, RouteModule } from './env.ts';

export interface AppOptions {
  token: string;
  getPort(): number;
  routes: RouteModule[];
  /** Logs errors that become 500s (default: stderr). */
  logError?(e: unknown): void;
  /** Called as each request comes in, before the guards. */
  onRequest?(): void;
}

export function createApp(opts: AppOptions): App {
  const app = new Hono<AppEnv>();
  const logError = opts.logError ?? ((e: unknown) => console.error('[muster] internal error:', e));
  app.onError((err, c) => {
    const { status, body } = toErrorEnvelope(err);
    if (status >= 500 && !(err instanceof MusterError && err.code !== 'internal')) logError(err);
    return c.json(body, status as 400);
  });
  app.notFound((c) => c.json(toErrorEnvelope(new MusterError('not_found', `no route ${c.req.method} ${new URL(c.req.url).pathname}`)).body, 404));
  app.use('*', async (c, next) => {
    opts.onRequest?.();
    await next();
    setFinalHeaders(c);
  });
  app.use('*', createGuards({ token: opts.token, getPort: opts.getPort, publicPaths: new Set(['/api/health']) }));
  for (const mount of opts.routes) mount(app);
  return app;
}

/**
 * The headers every response carries, set on the response's own Headers. Hono's `c.header()` after
 * the handler would rebuild the response from its body stream: the Node adapter then writes every
 * response through a web stream, and reading it detaches an ArrayBuffer, which makes V8 throw away
 * the daemon thread's optimised code that touches Buffers (a cold index's fold) and compile it again.
 * The adapter's own responses keep their body as it was given and write it at once.
 */
function setFinalHeaders(c: Context<AppEnv>): void {
  try {
    c.res.headers.set('x-content-type-options', 'nosniff');
    c.res.headers.set('referrer-policy', 'no-referrer');
  } catch {
    // Immutable headers (a response fetch() returned): Hono's way, a copy of the response.
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
  }
}
