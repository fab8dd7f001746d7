/**
 * Who shows which character: GET /api/characters, POST /api/characters/assign
 * (per harness), /override (per session), /active (the pack unassigned sessions draw from).
 * Every change answers the new state and is published as `board.characters.changed`.
 */
import type { CharacterService } from '../../board/index.ts';
import type { EventBus } from '../../events/index.ts';
import { readJsonObject } from '../body.ts';
import type { App } from '../env.ts';

export interface BoardRouteOptions {
  characters: CharacterService;
  bus: EventBus;
}

/** `{ pack, character }` from a body, or null to clear (`clear: true`, or `pack: null`). */
export function refOf(body: Record<string, unknown>): unknown {
  if (body.clear === true || body.pack === null) return null;
  return { pack: body.pack, character: body.character };
}

export function characterRoutes(opts: BoardRouteOptions) {
  const changed = async () => {
    const state = await opts.characters.characters();
    opts.bus.publish('board.characters.changed', { active: state.active });
    return { ok: true, ...state };
  };
  return (app: App) => {
    app.get('/api/characters', async (c) => c.json({ ok: true, ...(await opts.characters.characters()) }));
    app.post('/api/characters/assign', async (c) => {
      const body = await readJsonObject(c);
      await opts.characters.assign(body.harness, refOf(body));
      return c.json(await changed());
    });
    app.post('/api/characters/override', async (c) => {
      const body = await readJsonObject(c);
      await opts.characters.override(body.sessionId, refOf(body));
      return c.json(await changed());
    });
    app.post('/api/characters/active', async (c) => {
      const body = await readJsonObject(c);
      await opts.characters.setActive(body.pack);
      return c.json(await changed());
    });
  };
}
