/** Shared Hono typing for the daemon's app. */
import type { Hono } from 'hono';

export interface AuthInfo {
  /** How the request proved it holds the token. */
  via: 'bearer' | 'cookie' | 'none';
}

export type AppEnv = { Variables: { auth: AuthInfo } };
export type App = Hono<AppEnv>;
/** A route module mounts its routes on the app (the composition root picks which). */
export type RouteModule = (app: App) => void;
