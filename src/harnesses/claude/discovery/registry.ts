/**
 * Claude Code's live registry: one `sessions/<pid>.json` per running `claude` process, written
 * at start and rewritten on every status change, removed on a clean exit, left behind by SIGKILL.
 */
import { isUuid } from '../../../core/ids.ts';
import type { PaneRef } from '../../../core/session.ts';
import { asNumber, asObject, asString } from './record-fields.ts';

export interface RegistryEntry {
  pid: number;
  sessionId: string;
  cwd: string | null;
  /** ms since epoch. */
  startedAt: number | null;
  /** /proc/<pid>/stat field 22 of the writer, as Claude recorded it (a decimal string). */
  procStart: number | null;
  kind: string | null;
  entrypoint: string | null;
  /** 'busy' | 'shell' | 'idle' | 'waiting' | null (null right after start), or another state such as 'needs_trust'. */
  status: string | null;
  waitingFor: string | null;
  /** ms since epoch. */
  statusUpdatedAt: number | null;
  updatedAt: number | null;
  /** `<session>:@<window>.%<pane>`, present only when started inside tmux. */
  tmux: string | null;
  name: string | null;
  nameSource: string | null;
}

export type RegistryParse =
  | { ok: true; entry: RegistryEntry }
  /** Not (yet) valid JSON: possibly read mid-write; worth one re-read. */
  | { ok: false; torn: true; reason: string }
  | { ok: false; torn: false; reason: string };

/** `<pid>.json` file names; the `<pid>.<sha256>.key` files beside them are not entries. */
export function registryFilePid(fileName: string): number | null {
  const m = /^([1-9]\d{0,9})\.json$/.exec(fileName);
  const pid = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Parses one registry file's text; `filePid` is the pid its name carries. */
export function parseRegistryEntry(text: string, filePid: number): RegistryParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, torn: true, reason: text.length === 0 ? 'empty' : 'invalid JSON' };
  }
  const o = asObject(raw);
  if (!o) return { ok: false, torn: false, reason: 'not an object' };
  const pid = asNumber(o.pid);
  if (pid !== filePid) return { ok: false, torn: false, reason: 'pid does not match the file name' };
  const sessionId = asString(o.sessionId);
  if (!sessionId || !isUuid(sessionId)) return { ok: false, torn: false, reason: 'no valid sessionId' };
  const procStartText = asString(o.procStart) ?? (asNumber(o.procStart) === null ? null : String(o.procStart));
  const procStart = procStartText !== null && /^\d+$/.test(procStartText) ? Number(procStartText) : null;
  return {
    ok: true,
    entry: {
      pid,
      sessionId: sessionId.toLowerCase(),
      cwd: asString(o.cwd),
      startedAt: asNumber(o.startedAt),
      procStart,
      kind: asString(o.kind),
      entrypoint: asString(o.entrypoint),
      status: asString(o.status),
      waitingFor: asString(o.waitingFor),
      statusUpdatedAt: asNumber(o.statusUpdatedAt),
      updatedAt: asNumber(o.updatedAt),
      tmux: asString(o.tmux),
      name: asString(o.name),
      nameSource: asString(o.nameSource),
    },
  };
}

/** `cc2:@1.%1` → tmux pane `%1`. The registry does not name the tmux socket. */
export function paneFromTmuxField(tmux: string | null): PaneRef | null {
  if (!tmux) return null;
  const m = /(%\d+)$/.exec(tmux.trim());
  return m?.[1] ? { manager: 'tmux', id: m[1] } : null;
}
