/**
 * Built-in emoji packs. Each harness gets its own family of characters (its adapter's
 * `display.critters`) so a glance at the board tells harnesses apart before reading a word; a session
 * picks one of its family by a stable hash of its id, so it keeps its face across reloads. Served to
 * the board with the other packs (GET /api/characters); the web app never imports this file.
 */
import { ADAPTERS } from '../harnesses/registry.ts';
import type { Character, Pack } from './types.ts';

function critters(): Character[] {
  return ADAPTERS.flatMap((a) => a.display.critters.map(([name, emoji]): Character => ({ id: `${a.name}-${name}`, kind: 'emoji', name, emoji, harness: a.name })));
}

export const BUILTIN_PACKS: readonly Pack[] = [
  { id: 'critters', name: 'Critters', builtin: true, characters: critters() },
  {
    id: 'dots',
    name: 'Dots',
    builtin: true,
    characters: ADAPTERS.map((a): Character => ({ id: `${a.name}-dot`, kind: 'emoji', name: `${a.name} dot`, emoji: a.display.dot, harness: a.name })),
  },
];

export { DEFAULT_ACTIVE_PACK } from './builtin-ids.ts';

export function isBuiltinPack(id: string): boolean {
  return BUILTIN_PACKS.some((p) => p.id === id);
}
