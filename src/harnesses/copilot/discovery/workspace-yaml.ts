/**
 * `session-state/<id>/workspace.yaml`: a flat YAML map Copilot CLI writes per session (`id`, `cwd`,
 * `name`, `user_named`, `created_at`, `updated_at`…). Only top-level `key: scalar` lines are read —
 * plain, 'single-quoted' ('' is a quote) or "double-quoted" (JSON escapes); anything else (block
 * scalars, nested maps, lists) is skipped. Never throws: the file belongs to another program.
 */

export interface Workspace {
  id: string | null;
  cwd: string | null;
  /** The session's name: its first prompt, or `--name` / `/rename` (then `userNamed`). */
  name: string | null;
  userNamed: boolean;
  createdAt: string | null;
  updatedAt: string | null;
}

const LINE = /^([A-Za-z_][A-Za-z0-9_]*):(?:[ \t]+(.*))?$/;

function scalar(raw: string): string | null {
  const v = raw.trim();
  if (v === '' || v === '~' || v === 'null') return null;
  if (v.startsWith("'")) return v.endsWith("'") && v.length >= 2 ? v.slice(1, -1).replace(/''/g, "'") : null;
  if (v.startsWith('"')) {
    try {
      const s: unknown = JSON.parse(v);
      return typeof s === 'string' ? s : null;
    } catch {
      return null;
    }
  }
  // A block scalar (`|`, `>`) or a flow collection is not a value Muster reads.
  if (/^[|>[{&*!]/.test(v)) return null;
  // A plain scalar ends at a comment.
  return v.replace(/\s+#.*$/, '');
}

/** The top-level scalars of a YAML document, by key (later keys win). */
export function parseFlatYaml(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (!m) continue;
    const value = scalar(m[2] ?? '');
    if (value !== null) out.set(m[1] as string, value);
  }
  return out;
}

export function parseWorkspace(text: string): Workspace {
  const y = parseFlatYaml(text);
  const get = (k: string): string | null => y.get(k) ?? null;
  return {
    id: get('id'),
    cwd: get('cwd'),
    name: get('name'),
    userNamed: get('user_named') === 'true',
    createdAt: get('created_at'),
    updatedAt: get('updated_at'),
  };
}
