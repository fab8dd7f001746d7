/**
 * Request guards applied to every route, in this order:
 * 1. Host must be a loopback name — defeats DNS rebinding; 403 even with a valid token.
 * 2. Token: `Authorization: Bearer`, or the per-port cookie; `?token=` on a GET sets the cookie and
 *    redirects to the clean URL so the token leaves the address bar. 401 otherwise (but /api/health).
 * 3. State-changing methods need a same-origin `Origin`. A request with no Origin is accepted only
 *    with a Bearer token (CLI, MCP clients); a cookie-authenticated request must prove its origin.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { MusterError } from '../errors/index.ts';
import type { AppEnv } from './env.ts';
import { isWellFormedToken } from '../daemon/token-format.ts';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Splits a Host header into name and port; returns null when it is not a plausible host. */
export function parseHost(host: string): { name: string; port: string | null } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host.trim());
  if (!m || !m[1]) return null;
  return { name: m[1].toLowerCase(), port: m[2] ?? null };
}

export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const h = parseHost(host);
  return h !== null && LOOPBACK_HOSTS.has(h.name);
}

export function cookieName(port: number): string {
  return `muster_token_${port}`;
}

/** Empty credentials never match, whatever the token is. */
function sameToken(a: string, b: string): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface GuardOptions {
  token: string;
  /** The port the daemon listens on (names the cookie so boards on other ports never clobber it). */
  getPort(): number;
  /** Paths that answer without the token (the Host check still applies). */
  publicPaths: Set<string>;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function createGuards(opts: GuardOptions): MiddlewareHandler<AppEnv> {
  // A short token is guessable, an empty one matches an empty cookie: refuse to serve with either.
  if (!isWellFormedToken(opts.token)) throw new MusterError('internal', 'the board token is malformed; refusing to serve');
  return async (c, next) => {
    const url = new URL(c.req.url);
    const host = c.req.header('host') ?? url.host;
    if (!isLoopbackHost(host)) {
      throw new MusterError('forbidden_host', 'Host must be a loopback name (127.0.0.1, localhost or [::1])');
    }
    const port = opts.getPort();
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();
    const cookie = getCookie(c, cookieName(port));
    let via: 'bearer' | 'cookie' | 'none' = 'none';
    if (bearer !== undefined && sameToken(bearer, opts.token)) via = 'bearer';
    else if (cookie !== undefined && sameToken(cookie, opts.token)) via = 'cookie';

    const queryToken = url.searchParams.get('token');
    if (queryToken !== null && c.req.method === 'GET' && sameToken(queryToken, opts.token)) {
      setCookie(c, cookieName(port), opts.token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      url.searchParams.delete('token');
      const clean = url.pathname + (url.searchParams.size > 0 ? `?${url.searchParams.toString()}` : '');
      c.header('referrer-policy', 'no-referrer');
      return c.redirect(clean, 302);
    }

    if (via === 'none' && !opts.publicPaths.has(url.pathname)) {
      throw new MusterError('unauthorized', 'missing or wrong token: open the URL printed by `muster url`, or send Authorization: Bearer <token>');
    }

    if (UNSAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header('origin');
      const site = c.req.header('sec-fetch-site');
      if (site === 'cross-site' || site === 'same-site') throw new MusterError('forbidden_origin', 'cross-origin requests are refused');
      if (origin !== undefined) {
        let originHost: string | null = null;
        try {
          originHost = new URL(origin).host;
        } catch {
          originHost = null;
        }
        if (originHost === null || originHost.toLowerCase() !== host.toLowerCase()) {
          throw new MusterError('forbidden_origin', 'cross-origin requests are refused');
        }
      } else if (via !== 'bearer') {
        throw new MusterError('forbidden_origin', 'a state-changing request needs a same-origin Origin header or a Bearer token');
      }
    }
    c.set('auth', { via });
    await next();
  };
}
