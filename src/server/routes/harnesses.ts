/**
 * GET /api/harnesses — the harnesses Muster knows (the registry), in display order, with what the
 * board shows of each: name, label, mark and colour, and whether `muster new` can start it here
 * (`startable`: its command is on the daemon's PATH). The board and other clients never hard-code the list.
 */
import { ADAPTERS } from '../../harnesses/registry.ts';
import type { Harness } from '../../core/session.ts';
import type { App } from '../env.ts';

export interface HarnessInfo {
  name: string;
  label: string;
  mark: string;
  color: string;
  /** Its command is on the daemon's PATH and Muster can start it (the New session form offers it). Absent: not told. */
  startable?: boolean;
}

export interface HarnessRouteOptions {
  /** Whether the harness's command is on the daemon's PATH, asked at each request. Default: not told. */
  installed?(harness: Harness): boolean;
}

export function harnessRoutes(opts: HarnessRouteOptions = {}) {
  const harnesses: HarnessInfo[] = ADAPTERS.map((a) => ({ name: a.name, label: a.label, mark: a.display.mark, color: a.display.color }));
  return (app: App) => {
    app.get('/api/harnesses', (c) => {
      const installed = opts.installed;
      if (!installed) return c.json({ ok: true, harnesses });
      return c.json({ ok: true, harnesses: harnesses.map((h, i) => ({ ...h, startable: ADAPTERS[i]!.startArgs !== undefined && installed(ADAPTERS[i]!.name) })) });
    });
  };
}
