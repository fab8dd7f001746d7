/**
 * The daemon's HTTP app (Hono, Web-standard handlers: a route test is `await app.request(...)`).
 * Every route sits behind the guards; one error serializer renders every failure; unknown routes
 * are a JSON 404. No stack ever leaves the process.
 */
import { Hono } from 'hono';
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
  });
  app.use('*', createGuards({ token: opts.token, getPort: opts.getPort, publicPaths: new Set(['/api/health']) }));
  for (const mount of opts.routes) mount(app);
  return app;
}
