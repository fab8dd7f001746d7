/**
 * GET /api/harnesses — the harnesses Muster knows (the registry), in display order, with what the
 * board shows of each: name, label, mark and colour. The board and other clients never hard-code the list.
 */
import { ADAPTERS } from '../../harnesses/registry.ts';
import type { App } from '../env.ts';

export interface HarnessInfo {
  name: string;
  label: string;
  mark: string;
  color: string;
}

export function harnessRoutes() {
  const harnesses: HarnessInfo[] = ADAPTERS.map((a) => ({ name: a.name, label: a.label, mark: a.display.mark, color: a.display.color }));
  return (app: App) => {
    app.get('/api/harnesses', (c) => c.json({ ok: true, harnesses }));
  };
}
