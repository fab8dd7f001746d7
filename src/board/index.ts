/** The board's domain: character packs, who shows which character, and the saved canvas scene. */
export { createCharacterService, MAX_IMAGE_BYTES, type CharacterService, type CharacterServiceOptions } from './characters.ts';
export { createSceneService, type SceneService } from './scene-service.ts';
export { validateScene, sceneFileIds, pickAppState, decodeDataUrl, SCENE_LIMITS, type SceneInput, type Validated } from './scene.ts';
export { resolveCharacter, characterImageUrl, stableHash, type ResolvedCharacter } from './resolve.ts';
export { BUILTIN_PACKS, DEFAULT_ACTIVE_PACK, isBuiltinPack } from './builtin-packs.ts';
export { sniffImage, contentHash, type SniffedImage } from './sniff.ts';
export { PACK_ID, CHARACTER_ID } from './names.ts';
export type { BoardRepository, PackFileStore, StoredPack, StoredScene } from './ports.ts';
export type { BoardCharacters, Character, CharacterKind, CharacterRef, Pack, Position, Scene, SceneFile } from './types.ts';
