/**
 * OpenCode's tui.json `plugin` list: add one entry (Muster's TUI plugin), keeping every other key and
 * plugin; recognise it by its exact spec, also in the `[spec, options]` form OpenCode accepts.
 */
import { MalformedConfig, type FileEdit } from '../../hooks/install/engine.ts';

type Json = Record<string, unknown>;

/** What a new tui.json starts with (OpenCode writes the same `$schema` when it creates one). */
const TUI_SCHEMA = 'https://opencode.ai/tui.json';

function parse(text: string | null, path: string): Json | null {
  if (text === null || text.trim() === '') return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new MalformedConfig(`${path} is not plain JSON (${(e as Error).message}); fix it first — Muster left it untouched`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new MalformedConfig(`${path} is not a JSON object; Muster left it untouched`);
  const plugin = (v as Json).plugin;
  if (plugin !== undefined && !Array.isArray(plugin)) throw new MalformedConfig(`${path}: "plugin" is not an array; Muster left it untouched`);
  return v as Json;
}

export function pluginListEdit(path: string, spec: string): FileEdit {
  const ours = (p: unknown) => p === spec || (Array.isArray(p) && p[0] === spec);
  const list = (doc: Json | null) => (doc?.plugin as unknown[] | undefined) ?? [];
  return {
    path,
    has: (current) => list(parse(current, path)).some(ours),
    add(current) {
      const doc = parse(current, path) ?? { $schema: TUI_SCHEMA };
      if (list(doc).some(ours)) return current ?? '';
      return `${JSON.stringify({ ...doc, plugin: [...list(doc), spec] }, null, 2)}\n`;
    },
    remove(current) {
      const doc = parse(current, path) ?? {};
      const kept = list(doc).filter((p) => !ours(p));
      const out: Json = { ...doc, plugin: kept };
      if (kept.length === 0) delete out.plugin;
      return `${JSON.stringify(out, null, 2)}\n`;
    },
  };
}
