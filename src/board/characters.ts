/**
 * Characters and packs (issue 5): builtin emoji packs, custom packs of emoji and
 * uploaded images (type sniffed from the bytes, content-hashed), per-harness assignment, per-session
 * override, the active pack. Persistence and files go through the ports; nothing here touches the OS.
 */
import { MusterError } from '../errors/index.ts';
import { type Harness } from '../core/session.ts';
import { HARNESSES } from '../harnesses/registry.ts';
import { isSessionId } from '../harnesses/registry.ts';
import { BUILTIN_PACKS, DEFAULT_ACTIVE_PACK, isBuiltinPack } from './builtin-packs.ts';
import { CHARACTER_ID, PACK_ID, checkEmoji, checkId, checkName, packIdFor } from './names.ts';
import type { BoardRepository, PackFileStore } from './ports.ts';
import { contentHash, sniffImage } from './sniff.ts';
import type { BoardCharacters, Character, CharacterRef, Pack } from './types.ts';

/** Largest image a pack takes, in bytes (the route's request limit is 1.5 MiB of JSON around it). */
export const MAX_IMAGE_BYTES = 1.5 * 1024 * 1024;

export interface CharacterServiceOptions {
  repo: BoardRepository;
  files: PackFileStore;
  /** ISO time for rows. Default: now. */
  clock?: () => number;
  /** Random suffix for character ids. Default: crypto.getRandomValues. */
  randomId?: () => string;
}

export interface CharacterService {
  characters(): Promise<BoardCharacters>;
  createPack(name: unknown): Promise<Pack>;
  /**
   * A new pack holding a copy of `from`'s characters (builtin or custom) and image files, named `name`
   * (default: "<source name> copy"). 400 for a malformed `from`, 404 for an unknown one. `skipped`
   * lists image characters left out because their file is gone from the source pack.
   */
  copyPack(from: unknown, name?: unknown): Promise<{ pack: Pack; skipped: string[] }>;
  renamePack(pack: unknown, name: unknown): Promise<Pack>;
  deletePack(pack: unknown): Promise<void>;
  addEmoji(pack: unknown, emoji: unknown, name?: unknown): Promise<Character>;
  addImage(pack: unknown, bytes: Uint8Array, name?: unknown): Promise<Character>;
  removeCharacter(pack: unknown, character: unknown): Promise<void>;
  /** `ref` null clears. */
  assign(harness: unknown, ref: unknown): Promise<void>;
  override(sessionId: unknown, ref: unknown): Promise<void>;
  setActive(pack: unknown): Promise<void>;
  /** A pack's file, only if that pack lists it (a file it does not list is never served); null otherwise. */
  readFile(pack: string, file: string): Promise<{ bytes: Uint8Array; mime: string; hash: string } | null>;
}

/** "<name> copy", kept within the 60 characters a name may have. */
function copyName(name: string): string {
  return `${name.slice(0, 55)} copy`;
}

function defaultRandomId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => (b % 36).toString(36)).join('').slice(0, 10);
}

export function createCharacterService(options: CharacterServiceOptions): CharacterService {
  const { repo, files } = options;
  const now = () => new Date((options.clock ?? Date.now)()).toISOString();
  const randomId = options.randomId ?? defaultRandomId;

  async function allPacks(): Promise<Pack[]> {
    const custom = (await repo.listPacks()).map((p) => ({ ...p, builtin: false }));
    return [...BUILTIN_PACKS, ...custom];
  }

  async function customPack(v: unknown): Promise<Pack> {
    const id = checkId(v, PACK_ID, 'pack');
    if (isBuiltinPack(id)) throw new MusterError('pack_read_only', `the builtin pack ${id} cannot be changed; create a pack of your own`);
    const pack = (await repo.listPacks()).find((p) => p.id === id);
    if (!pack) throw new MusterError('pack_not_found', `no pack ${id}`);
    return { ...pack, builtin: false };
  }

  async function checkRef(v: unknown): Promise<CharacterRef | null> {
    if (v === null) return null;
    const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
    const pack = checkId(o.pack, PACK_ID, 'pack');
    const character = checkId(o.character, CHARACTER_ID, 'character');
    const p = (await allPacks()).find((x) => x.id === pack);
    if (!p) throw new MusterError('pack_not_found', `no pack ${pack}`);
    if (!p.characters.some((c) => c.id === character)) throw new MusterError('character_not_found', `pack ${pack} has no character ${character}`);
    return { pack, character };
  }

  async function add(pack: Pack, c: Omit<Character, 'id'>): Promise<Character> {
    if (pack.characters.length >= 500) throw new MusterError('invalid_argument', 'a pack holds at most 500 characters');
    const character: Character = { id: `c-${randomId()}`, ...c };
    await repo.addCharacter(pack.id, character, now());
    return character;
  }

  return {
    async characters() {
      const packs = await allPacks();
      const stored = await repo.getActive();
      const active = stored && packs.some((p) => p.id === stored) ? stored : DEFAULT_ACTIVE_PACK;
      return { active, packs, assignments: await repo.assignments(), overrides: await repo.overrides() };
    },
    async createPack(nameValue) {
      const name = checkName(nameValue, 'name');
      const packs = await allPacks();
      if (packs.length >= 200) throw new MusterError('invalid_argument', 'at most 200 packs');
      const id = packIdFor(name, (x) => packs.some((p) => p.id === x));
      await repo.createPack({ id, name }, now());
      return { id, name, builtin: false, characters: [] };
    },
    async copyPack(fromValue, nameValue) {
      const fromId = checkId(fromValue, PACK_ID, 'from');
      const packs = await allPacks();
      const source = packs.find((p) => p.id === fromId);
      if (!source) throw new MusterError('pack_not_found', `no pack ${fromId} to copy`);
      const name = nameValue === undefined || nameValue === '' ? copyName(source.name) : checkName(nameValue, 'name');
      if (packs.length >= 200) throw new MusterError('invalid_argument', 'at most 200 packs');
      const id = packIdFor(name, (x) => packs.some((p) => p.id === x));
      const characters: Character[] = [];
      const skipped: string[] = [];
      try {
        for (const c of source.characters) {
          if (c.kind === 'image') {
            const bytes = c.file ? await files.read(source.id, c.file) : null;
            if (!bytes || !c.file) {
              skipped.push(c.id);
              continue;
            }
            await files.write(id, c.file, bytes);
          }
          characters.push({ ...c });
        }
        await repo.createPack({ id, name }, now(), characters);
      } catch (e) {
        // Nothing half-copied stays behind: the pack row is written last, in one transaction.
        await files.removePack(id).catch(() => undefined);
        throw e;
      }
      return { pack: { id, name, builtin: false, characters }, skipped };
    },
    async renamePack(packValue, nameValue) {
      const pack = await customPack(packValue);
      const name = checkName(nameValue, 'name');
      await repo.renamePack(pack.id, name);
      return { ...pack, name };
    },
    async deletePack(packValue) {
      const pack = await customPack(packValue);
      await repo.deletePack(pack.id);
      if ((await repo.getActive()) === pack.id) await repo.setActive(DEFAULT_ACTIVE_PACK);
      await files.removePack(pack.id);
    },
    async addEmoji(packValue, emoji, name) {
      const pack = await customPack(packValue);
      const e = checkEmoji(emoji);
      return add(pack, { kind: 'emoji', emoji: e, name: name === undefined || name === '' ? e : checkName(name, 'name') });
    },
    async addImage(packValue, bytes, name) {
      const pack = await customPack(packValue);
      if (bytes.length === 0 || bytes.length > MAX_IMAGE_BYTES) throw new MusterError('payload_too_large', 'an image must be 1 byte to 1.5 MiB');
      const sniffed = sniffImage(bytes);
      if (!sniffed) throw new MusterError('invalid_image', 'the file is not a PNG, JPEG, WebP, GIF or SVG image (the type is read from the bytes)');
      const hash = await contentHash(bytes);
      const file = `${hash.slice(0, 24)}.${sniffed.ext}`;
      await files.write(pack.id, file, bytes);
      return add(pack, { kind: 'image', file, mime: sniffed.mime, hash, name: name === undefined || name === '' ? 'image' : checkName(name, 'name') });
    },
    async removeCharacter(packValue, characterValue) {
      const pack = await customPack(packValue);
      const id = checkId(characterValue, CHARACTER_ID, 'character');
      const c = pack.characters.find((x) => x.id === id);
      if (!c) throw new MusterError('character_not_found', `pack ${pack.id} has no character ${id}`);
      await repo.removeCharacter(pack.id, id);
      // The same image uploaded twice shares one file: remove it only with its last character.
      if (c.file && !pack.characters.some((x) => x.id !== id && x.file === c.file)) await files.remove(pack.id, c.file);
    },
    async assign(harnessValue, refValue) {
      if (typeof harnessValue !== 'string' || !(HARNESSES as readonly string[]).includes(harnessValue)) {
        throw new MusterError('invalid_argument', `harness must be one of ${HARNESSES.join(', ')}`);
      }
      await repo.setAssignment(harnessValue as Harness, await checkRef(refValue));
    },
    async override(sessionId, refValue) {
      if (!isSessionId(sessionId)) throw new MusterError('invalid_id', 'sessionId is not a session id');
      await repo.setOverride(sessionId, await checkRef(refValue));
    },
    async setActive(packValue) {
      const id = checkId(packValue, PACK_ID, 'pack');
      if (!(await allPacks()).some((p) => p.id === id)) throw new MusterError('pack_not_found', `no pack ${id}`);
      await repo.setActive(id);
    },
    async readFile(packId, file) {
      if (!PACK_ID.test(packId) || isBuiltinPack(packId)) return null;
      const pack = (await repo.listPacks()).find((p) => p.id === packId);
      const c = pack?.characters.find((x) => x.kind === 'image' && x.file === file);
      if (!c || !c.mime || !c.hash) return null;
      const bytes = await files.read(packId, file);
      return bytes ? { bytes, mime: c.mime, hash: c.hash } : null;
    },
  };
}
