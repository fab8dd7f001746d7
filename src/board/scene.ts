/**
 * Scene validation (issue 5 "Scenes"): size and shape limits on what the board saves. Elements are
 * Excalidraw's; their full schema belongs to Excalidraw and grows between versions, so only what the
 * board relies on is checked (id, type, finite geometry) and every other field — including element
 * types this build has never heard of — is kept untouched. Malformed input is refused, not repaired.
 * Validators return a result instead of throwing (the route turns it into a 400).
 */
import { sniffImage } from './sniff.ts';
import type { Position, SceneFile } from './types.ts';

export const SCENE_LIMITS = {
  elements: 20_000,
  positions: 10_000,
  /** Files per save. */
  files: 50,
  /** Decoded bytes of one image file: the same 1.5 MiB as a character upload. */
  fileBytes: 1.5 * 1024 * 1024,
  /** A coordinate's magnitude; beyond it the canvas is unusable anyway. */
  coordinate: 1e7,
} as const;

export type Validated<T> = { ok: true; value: T } | { ok: false; error: string };

export interface SceneInput {
  elements: Record<string, unknown>[];
  appState: Record<string, unknown>;
  positions: Record<string, Position>;
  files: SceneFile[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown, max: number = SCENE_LIMITS.coordinate): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= max;
const ID = /^[A-Za-z0-9_-]{1,100}$/;
/** `<harness>:<session id>`; a harness name has the registry's shape (this file is pure: the web app imports it). */
const POSITION_KEY = /^[a-z][a-z0-9]{1,15}:[A-Za-z0-9_-]{1,64}$/;

function checkElement(e: unknown, i: number): string | null {
  if (!isObject(e)) return `elements[${i}] is not an object`;
  if (typeof e.id !== 'string' || e.id.length === 0 || e.id.length > 100) return `elements[${i}].id must be a string of 1..100 characters`;
  if (typeof e.type !== 'string' || !/^[A-Za-z0-9_-]{1,40}$/.test(e.type)) return `elements[${i}].type must be a short name`;
  for (const k of ['x', 'y', 'width', 'height', 'angle']) {
    if (e[k] !== undefined && !finite(e[k])) return `elements[${i}].${k} must be a finite number`;
  }
  if (e.isDeleted !== undefined && typeof e.isDeleted !== 'boolean') return `elements[${i}].isDeleted must be a boolean`;
  if (e.fileId !== undefined && e.fileId !== null && (typeof e.fileId !== 'string' || !ID.test(e.fileId))) return `elements[${i}].fileId is malformed`;
  return null;
}

/** Keeps only the app-state fields worth restoring; anything else is dropped, not refused. */
export function pickAppState(v: unknown): Record<string, unknown> {
  if (!isObject(v)) return {};
  const out: Record<string, unknown> = {};
  if (typeof v.viewBackgroundColor === 'string' && v.viewBackgroundColor.length <= 40) out.viewBackgroundColor = v.viewBackgroundColor;
  if (finite(v.scrollX)) out.scrollX = v.scrollX;
  if (finite(v.scrollY)) out.scrollY = v.scrollY;
  const zoom = isObject(v.zoom) ? v.zoom.value : undefined;
  if (finite(zoom, 100) && zoom > 0) out.zoom = { value: zoom };
  return out;
}

function checkPositions(v: unknown): Validated<Record<string, Position>> {
  if (v === undefined) return { ok: true, value: {} };
  if (!isObject(v)) return { ok: false, error: 'positions must be an object' };
  const entries = Object.entries(v);
  if (entries.length > SCENE_LIMITS.positions) return { ok: false, error: `at most ${SCENE_LIMITS.positions} positions` };
  const out: Record<string, Position> = {};
  for (const [key, p] of entries) {
    if (!POSITION_KEY.test(key)) return { ok: false, error: `positions key ${JSON.stringify(key.slice(0, 80))} is not <harness>:<session id>` };
    if (!isObject(p) || !finite(p.x) || !finite(p.y)) return { ok: false, error: `positions[${key}] must be { x, y } with finite numbers` };
    out[key] = { x: p.x, y: p.y };
  }
  return { ok: true, value: out };
}

/** Decodes a `data:<mime>;base64,` URL; null when it is not one. */
export function decodeDataUrl(url: string): { mime: string; bytes: Uint8Array } | null {
  const m = /^data:([a-z0-9.+/-]{1,60});base64,([A-Za-z0-9+/]*={0,2})$/i.exec(url);
  if (!m || !m[1] || m[2] === undefined) return null;
  try {
    const bin = atob(m[2]);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return { mime: m[1].toLowerCase(), bytes };
  } catch {
    return null;
  }
}

function checkFiles(v: unknown): Validated<SceneFile[]> {
  if (v === undefined) return { ok: true, value: [] };
  if (!isObject(v)) return { ok: false, error: 'files must be an object keyed by file id' };
  const entries = Object.entries(v);
  if (entries.length > SCENE_LIMITS.files) return { ok: false, error: `at most ${SCENE_LIMITS.files} files per save` };
  const out: SceneFile[] = [];
  for (const [id, f] of entries) {
    if (!ID.test(id)) return { ok: false, error: 'a file id is malformed' };
    if (!isObject(f) || typeof f.dataURL !== 'string') return { ok: false, error: `files[${id}] must carry a dataURL` };
    const decoded = decodeDataUrl(f.dataURL);
    if (!decoded) return { ok: false, error: `files[${id}].dataURL is not a base64 data URL` };
    if (decoded.bytes.length > SCENE_LIMITS.fileBytes) return { ok: false, error: `files[${id}] is larger than 1.5 MiB` };
    const sniffed = sniffImage(decoded.bytes);
    if (!sniffed) return { ok: false, error: `files[${id}] is not a PNG, JPEG, GIF, WebP or SVG image` };
    // The stored type is the sniffed one: a declared type is a claim, the bytes are the fact.
    out.push({ id, mimeType: sniffed.mime, dataURL: `data:${sniffed.mime};base64,${f.dataURL.slice(f.dataURL.indexOf(',') + 1)}` });
  }
  return { ok: true, value: out };
}

export function validateScene(body: Record<string, unknown>): Validated<SceneInput> {
  const raw = body.elements;
  if (!Array.isArray(raw)) return { ok: false, error: 'elements must be an array' };
  if (raw.length > SCENE_LIMITS.elements) return { ok: false, error: `at most ${SCENE_LIMITS.elements} elements` };
  for (let i = 0; i < raw.length; i++) {
    const problem = checkElement(raw[i], i);
    if (problem) return { ok: false, error: problem };
  }
  const positions = checkPositions(body.positions);
  if (!positions.ok) return positions;
  const files = checkFiles(body.files);
  if (!files.ok) return files;
  return { ok: true, value: { elements: raw as Record<string, unknown>[], appState: pickAppState(body.appState), positions: positions.value, files: files.value } };
}

/** File ids that the scene's (non-deleted) image elements use. */
export function sceneFileIds(elements: Record<string, unknown>[]): string[] {
  const ids = new Set<string>();
  for (const e of elements) if (e.type === 'image' && e.isDeleted !== true && typeof e.fileId === 'string') ids.add(e.fileId);
  return [...ids];
}
