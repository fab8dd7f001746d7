/**
 * Which character a session shows — pure, so the daemon and the web app answer alike:
 * 1. the session's override, 2. its harness's assignment, 3. a character of the active pack (one
 * made for its harness if the pack has any, else any), picked by a stable hash of the session id,
 * 4. the builtin critter of its harness. A reference to something deleted falls through.
 */
import type { Harness } from '../core/session.ts';
import { DEFAULT_ACTIVE_PACK } from './builtin-ids.ts';
import type { BoardCharacters, Character, CharacterRef, Pack } from './types.ts';

const LAST_RESORT: Pack = { id: DEFAULT_ACTIVE_PACK, name: 'Critters', builtin: true, characters: [{ id: 'agent', kind: 'emoji', name: 'agent', emoji: '🤖' }] };

export interface ResolvedCharacter {
  pack: Pack;
  character: Character;
  /** Why this one: shown in the panel so the operator knows what to change. */
  via: 'override' | 'assignment' | 'active' | 'fallback';
}

/** FNV-1a over the id: stable across runs and platforms, cheap for 1,000 sessions. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function find(board: BoardCharacters, ref: CharacterRef | undefined): { pack: Pack; character: Character } | null {
  if (!ref) return null;
  const pack = board.packs.find((p) => p.id === ref.pack);
  const character = pack?.characters.find((c) => c.id === ref.character);
  return pack && character ? { pack, character } : null;
}

function pick(pack: Pack | undefined, harness: Harness, id: string): Character | null {
  if (!pack || pack.characters.length === 0) return null;
  const own = pack.characters.filter((c) => c.harness === harness);
  const pool = own.length > 0 ? own : pack.characters.filter((c) => c.harness === undefined);
  if (pool.length === 0) return null;
  return pool[stableHash(id) % pool.length] ?? null;
}

export function resolveCharacter(board: BoardCharacters, session: { harness: Harness; id: string }): ResolvedCharacter {
  const override = find(board, board.overrides[session.id]);
  if (override) return { ...override, via: 'override' };
  const assigned = find(board, board.assignments[session.harness]);
  if (assigned) return { ...assigned, via: 'assignment' };
  const active = board.packs.find((p) => p.id === board.active);
  const fromActive = pick(active, session.harness, session.id);
  if (active && fromActive) return { pack: active, character: fromActive, via: 'active' };
  // The builtin critters always come with the packs the daemon serves; a last-resort face covers a board
  // that has none (nothing is lost: the operator still sees the session).
  const fallbackPack = board.packs.find((p) => p.id === DEFAULT_ACTIVE_PACK) ?? LAST_RESORT;
  const character = pick(fallbackPack, session.harness, session.id) ?? (LAST_RESORT.characters[0] as Character);
  return { pack: fallbackPack, character, via: 'fallback' };
}

/** The URL of an image character, cache-busted by its content hash (immutable when it matches). */
export function characterImageUrl(pack: string, c: Character): string | null {
  if (c.kind !== 'image' || !c.file) return null;
  return `/api/packs/${encodeURIComponent(pack)}/${encodeURIComponent(c.file)}?v=${c.hash ?? ''}`;
}
