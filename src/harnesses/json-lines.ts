/** The JSON objects among a CLI's output lines (warnings and progress lines are skipped). */
export type Json = Record<string, unknown>;

export function jsonLines(stdout: string): Json[] {
  const out: Json[] = [];
  for (const line of stdout.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      const v = JSON.parse(t) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v as Json);
    } catch {
      // Not an event; skipped.
    }
  }
  return out;
}

/** A finite number, else 0 (usage fields come from other programs). */
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
