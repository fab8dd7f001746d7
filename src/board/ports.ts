/**
 * The board's ports: where packs, choices and the scene persist (the store implements
 * BoardRepository; async so a fleet-shared Postgres can satisfy it later), and where uploaded
 * character images live (PackFileStore; the real one writes under MUSTER_HOME/packs).
 */
import type { Harness } from '../core/session.ts';
import type { Character, CharacterRef, Position, SceneFile } from './types.ts';

export interface StoredPack {
  id: string;
  name: string;
  characters: Character[];
}

export interface StoredScene {
  elements: Record<string, unknown>[];
  appState: Record<string, unknown>;
  positions: Record<string, Position>;
  version: number;
  updatedAt: string | null;
}

export interface BoardRepository {
  /** Custom packs (builtins are code, not rows), oldest first, characters in insertion order. */
  listPacks(): Promise<StoredPack[]>;
  /** Creates the pack with `characters` (in that order) in one transaction. */
  createPack(pack: { id: string; name: string }, at: string, characters?: Character[]): Promise<void>;
  /** False when there is no such pack. */
  renamePack(id: string, name: string): Promise<boolean>;
  /** Removes the pack, its characters, and assignments and overrides that point into it. */
  deletePack(id: string): Promise<boolean>;
  addCharacter(pack: string, character: Character, at: string): Promise<void>;
  /** Removes it and whatever assignment or override pointed at it. False when absent. */
  removeCharacter(pack: string, character: string): Promise<boolean>;
  getActive(): Promise<string | null>;
  setActive(pack: string): Promise<void>;
  assignments(): Promise<Partial<Record<Harness, CharacterRef>>>;
  /** null clears the assignment. */
  setAssignment(harness: Harness, ref: CharacterRef | null): Promise<void>;
  overrides(): Promise<Record<string, CharacterRef>>;
  setOverride(sessionId: string, ref: CharacterRef | null): Promise<void>;
  getScene(): Promise<StoredScene>;
  /** Replaces the scene and stores the given files (files are content-addressed by id: kept, never rewritten). */
  saveScene(scene: Omit<StoredScene, 'version' | 'updatedAt'>, files: SceneFile[], at: string): Promise<StoredScene>;
  /** The files among `ids` that exist. */
  sceneFiles(ids: string[]): Promise<SceneFile[]>;
}

export interface PackFileStore {
  /** Writes atomically (a reader never sees half a file). */
  write(pack: string, file: string, bytes: Uint8Array): Promise<void>;
  /** null when the file does not exist. */
  read(pack: string, file: string): Promise<Uint8Array | null>;
  remove(pack: string, file: string): Promise<void>;
  removePack(pack: string): Promise<void>;
}
