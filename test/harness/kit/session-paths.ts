/**
 * Where each pinned harness version writes its session files (observed), for tests to assert on.
 * Test-side only: Muster's sources have their own tolerant discovery.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Claude project slug: every char of the absolute cwd that is not [A-Za-z0-9] becomes `-`. */
export function claudeTranscriptPath(configDir: string, cwd: string, sessionId: string): string {
  return path.join(configDir, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);
}

/** pi: `<agentDir>/sessions/--<cwd without its leading "/", other "/" → "-">--/`, e.g. `--tmp-x-project--`. */
export function piSessionDir(agentDir: string, cwd: string): string {
  return path.join(agentDir, 'sessions', `--${cwd.replace(/^\//, '').replace(/\//g, '-')}--`);
}

/** omp: `~/.omp/agent/sessions/<cwd with every "/" → "-">/`, e.g. `-tmp-x-project` (no surrounding `--`, unlike pi). */
export function ompSessionDir(home: string, cwd: string): string {
  return path.join(home, '.omp', 'agent', 'sessions', cwd.replace(/\//g, '-'));
}

/** Every file below `dir` (recursively) whose name matches `pattern`; empty if `dir` is missing. */
export function findFiles(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (pattern.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Parsed JSONL records of a file; malformed lines are skipped. */
export function readJsonl(file: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {}
  }
  return out;
}
