/**
 * Codex `notify` in config.toml, edited as text (no TOML library): one top-level line Muster adds
 * as the file's first line (top-level keys must precede every table) and later removes. A user's
 * own notify program is never replaced: then the edit adds nothing and `has` stays false.
 */
import type { FileEdit } from '../../hooks/install/engine.ts';

const OURS = /^notify\s*=\s*\[.*muster.*"codex",\s*"notify"\]\s*(#.*)?$/;

function topLevel(text: string): string {
  return text.split(/^\s*\[/m)[0] ?? '';
}

export function userNotifyPresent(text: string | null): boolean {
  if (text === null) return false;
  return topLevel(text).split('\n').some((l) => /^\s*notify\s*=/.test(l) && !OURS.test(l.trim()));
}

export function codexNotifyEdit(path: string, argv: string[]): FileEdit {
  const line = `notify = [${argv.map((a) => JSON.stringify(a)).join(', ')}] # added by muster hooks install`;
  return {
    path,
    has: (current) => current !== null && topLevel(current).split('\n').some((l) => OURS.test(l.trim())),
    // Unchanged when ours (or the user's own) is there already.
    add: (current) => (userNotifyPresent(current) || (current !== null && topLevel(current).split('\n').some((l) => OURS.test(l.trim()))) ? (current ?? '') : `${line}\n${current ?? ''}`),
    remove: (current) => current.split('\n').filter((l) => !OURS.test(l.trim())).join('\n'),
  };
}
