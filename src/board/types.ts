/**
 * The board's domain shapes (issue 5): character packs, per-harness assignments,
 * per-session overrides, the active pack, and the one saved scene. Pure types: the web app imports
 * them too, so nothing here may touch the OS.
 */
import type { Harness } from '../core/session.ts';

export type CharacterKind = 'emoji' | 'image';

export interface Character {
  /** Unique within its pack: `c_` + 10 base36 characters, or a builtin's stable name. */
  id: string;
  kind: CharacterKind;
  /** Display name (people pick characters by it). */
  name: string;
  /** The emoji, for kind 'emoji'. */
  emoji?: string;
  /** Stored file name (`<sha256-prefix>.<ext>`), mime type and full content hash, for kind 'image'. */
  file?: string;
  mime?: string;
  hash?: string;
  /** Builtin characters are meant for one harness; custom ones for any. */
  harness?: Harness;
}

export interface Pack {
  /** `[a-z0-9-]{1,40}`: it names a folder under MUSTER_HOME/packs and a URL part. */
  id: string;
  name: string;
  builtin: boolean;
  characters: Character[];
}

/** Points at one character of one pack. */
export interface CharacterRef {
  pack: string;
  character: string;
}

export interface BoardCharacters {
  /** The pack whose characters unassigned sessions get. */
  active: string;
  packs: Pack[];
  /** Per harness: the character every session of that harness shows (unless overridden). */
  assignments: Partial<Record<Harness, CharacterRef>>;
  /** Per session id: the character that session shows. */
  overrides: Record<string, CharacterRef>;
}

/** A character's position on the canvas, in scene coordinates. */
export interface Position {
  x: number;
  y: number;
}

export interface Scene {
  /** Excalidraw elements, validated for shape; unknown element types are kept as they are. */
  elements: Record<string, unknown>[];
  /** The few app-state fields worth restoring (background, scroll, zoom). */
  appState: Record<string, unknown>;
  /** Character positions keyed `<harness>:<session id>`. */
  positions: Record<string, Position>;
  /** Ids of image files the scene's elements use (load them with POST /api/scene/files). */
  fileIds: string[];
  /** Increments on every save. */
  version: number;
  updatedAt: string | null;
}

/** An image file of the scene, as Excalidraw hands it over (`dataURL` = data:<mime>;base64,...). */
export interface SceneFile {
  id: string;
  mimeType: string;
  dataURL: string;
}
