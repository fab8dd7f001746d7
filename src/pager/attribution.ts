/**
 * Who asked? Strongest evidence first:
 * 1. the wrapper's headers (`x-muster-session-id`, with `x-muster-harness`, `x-muster-launch-id`);
 *    a launch id alone names the session its launch record is bound to (learnt from its hooks);
 * 2. the tool call's `_meta`, for harnesses that name the session there (Codex's `threadId`);
 * 3. the caller's working directory (`x-muster-cwd`, or the MCP client's first file:// root) and
 *    harness (header, or the MCP client's name), matched against exactly one live session there.
 * Otherwise the page is unattributed and says why. Untrusted values are format-checked, never used raw.
 */
import type { Harness, Session } from '../core/session.ts';
import { isHarness, isSessionId } from '../harnesses/registry.ts';
import { harnessOfMcpClient, sessionOfToolMeta } from '../harnesses/ports.ts';
import type { Attribution } from './types.ts';

export interface SessionLookup {
  get(id: string): Session | undefined;
  /** Live sessions (optionally of one harness) whose cwd is `cwd` or below it. */
  live(cwd: string, harness: Harness | null): Session[];
  /** The session a `muster <harness>` launch is bound to, when its launch record knows it. Must not throw. */
  launchSession?(launchId: string): string | null;
}

export interface AttributionHints {
  sessionId?: string | undefined;
  harness?: string | undefined;
  launchId?: string | undefined;
  cwd?: string | undefined;
  /** The tool call's `_meta` (Codex names its thread there). */
  toolMeta?: Record<string, unknown> | undefined;
  /** `clientInfo.name` from the MCP initialize. */
  clientName?: string | undefined;
  /** Working directory from the MCP client's roots, when it offers them. */
  rootCwd?: string | undefined;
}

const LAUNCH_ID = /^[A-Za-z0-9_-]{1,100}$/;

function asHarness(v: string | undefined): Harness | null {
  return isHarness(v) ? v : null;
}

function asCwd(v: string | undefined): string | null {
  if (v === undefined || !v.startsWith('/') || v.length > 4096 || v.includes('\0')) return null;
  return v.length > 1 ? v.replace(/\/+$/, '') : v;
}

/** The harness an MCP client announces by name (each adapter lists the names its harness uses). */
export function harnessOfClient(name: string | undefined): Harness | null {
  return harnessOfMcpClient(name);
}

export function resolveAttribution(h: AttributionHints, lookup: SessionLookup): Attribution {
  const launchId = h.launchId !== undefined && LAUNCH_ID.test(h.launchId) ? h.launchId : null;
  const cwd = asCwd(h.cwd) ?? asCwd(h.rootCwd);
  let harness = asHarness(h.harness) ?? harnessOfClient(h.clientName);
  const base = { launchId, cwd };

  if (isSessionId(h.sessionId)) {
    harness = harness ?? lookup.get(h.sessionId)?.harness ?? null;
    return { ...base, sessionId: h.sessionId, harness, via: 'header', note: null };
  }
  const launched = launchId !== null ? (lookup.launchSession?.(launchId) ?? null) : null;
  if (launched !== null && isSessionId(launched)) {
    return { ...base, sessionId: launched, harness: harness ?? lookup.get(launched)?.harness ?? null, via: 'header', note: null };
  }
  const meta = sessionOfToolMeta(h.toolMeta);
  if (meta) return { ...base, ...meta, note: null };
  if (cwd !== null) {
    const here = lookup.live(cwd, harness).filter((s) => s.cwd === cwd);
    if (here.length === 1) {
      const s = here[0] as Session;
      return { ...base, sessionId: s.id, harness: s.harness, via: 'cwd', note: null };
    }
    const what = `${harness ?? 'agent'} session${here.length === 1 ? '' : 's'}`;
    return { ...base, sessionId: null, harness, via: 'none', note: `unattributed: ${here.length} live ${what} in ${cwd}` };
  }
  return { ...base, sessionId: null, harness, via: 'none', note: 'unattributed: no wrapper headers, no Codex thread id and no working directory' };
}
