/**
 * Claude-shaped hook files (Claude's settings.json `hooks`, Codex's hooks.json): add one group per
 * event running `muster hook <harness> <Event>`, keeping every other key and hook; recognise Muster's
 * own handlers by their command (`… hook <harness> <Event>` from a muster entry point).
 */
import { MalformedConfig, type FileEdit } from './engine.ts';

type Json = Record<string, unknown>;

export interface JsonHooksOptions {
  path: string;
  harness: string;
  events: readonly string[];
  command(event: string): string;
  /** Claude groups carry `matcher: ""`; Codex groups have none. */
  matcher: boolean;
  /** Seconds, or per event (Claude's Stop waits for a goal's audit). */
  timeoutS: number | ((event: string) => number);
}

/** A hooks config file (`{ "hooks": { <event>: [...] }, … }`) as an object; throws MalformedConfig for anything else, so the file is left untouched. */
export function parseHooksConfig(text: string | null, path: string): Json {
  if (text === null || text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new MalformedConfig(`${path} is not valid JSON (${(e as Error).message}); fix it first — Muster left it untouched`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new MalformedConfig(`${path} is not a JSON object; Muster left it untouched`);
  const hooks = (v as Json).hooks;
  if (hooks !== undefined && (!hooks || typeof hooks !== 'object' || Array.isArray(hooks))) throw new MalformedConfig(`${path}: "hooks" is not an object; Muster left it untouched`);
  return v as Json;
}

export function jsonHooksEdit(o: JsonHooksOptions): FileEdit {
  const ours = (h: unknown) => {
    const c = (h as Json | null)?.command;
    return typeof c === 'string' && /muster/.test(c) && new RegExp(` hook ${o.harness} [A-Za-z]+$`).test(c);
  };
  const groupIsOurs = (g: unknown) => Array.isArray((g as Json | null)?.hooks) && ((g as Json).hooks as unknown[]).some(ours);
  return {
    path: o.path,
    has(current) {
      const hooks = parseHooksConfig(current, o.path).hooks as Json | undefined;
      return !!hooks && Object.values(hooks).some((groups) => Array.isArray(groups) && groups.some(groupIsOurs));
    },
    add(current) {
      const doc = parseHooksConfig(current, o.path);
      const hooks = { ...((doc.hooks as Json | undefined) ?? {}) };
      for (const e of o.events) {
        const existing = hooks[e];
        if (existing !== undefined && !Array.isArray(existing)) throw new MalformedConfig(`${o.path}: hooks.${e} is not an array; Muster left it untouched`);
        const group: Json = { ...(o.matcher ? { matcher: '' } : {}), hooks: [{ type: 'command', command: o.command(e), timeout: typeof o.timeoutS === 'number' ? o.timeoutS : o.timeoutS(e) }] };
        const list = (existing as unknown[] | undefined) ?? [];
        // Idempotent: Muster's own group is replaced where it stands, never added twice.
        const at = list.findIndex(groupIsOurs);
        hooks[e] = at >= 0 ? list.map((g, i) => (i === at ? group : g)).filter((g, i) => i === at || !groupIsOurs(g)) : [...list, group];
      }
      return `${JSON.stringify({ ...doc, hooks }, null, 2)}\n`;
    },
    remove(current) {
      const doc = parseHooksConfig(current, o.path);
      const hooks: Json = {};
      for (const [e, groups] of Object.entries((doc.hooks as Json | undefined) ?? {})) {
        if (!Array.isArray(groups)) {
          hooks[e] = groups;
          continue;
        }
        const kept = groups.filter((g) => !groupIsOurs(g));
        if (kept.length > 0) hooks[e] = kept;
      }
      const out: Json = { ...doc, hooks };
      if (Object.keys(hooks).length === 0) delete out.hooks;
      return `${JSON.stringify(out, null, 2)}\n`;
    },
  };
}

/** A file Muster owns outright (plugin, extension): written whole, deleted on uninstall. */
export function ownedFileEdit(path: string, content: string, marker: string): FileEdit {
  return {
    path,
    has: (current) => current !== null && current.startsWith(marker),
    add: () => content,
    remove: () => null,
  };
}
