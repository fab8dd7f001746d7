/**
 * How long a Stop hook may wait for a goal decision. Claude kills a command hook after its entry's
 * `timeout` (seconds; 60 when absent), so the Stop entry Muster writes carries a longer one and the
 * hook itself gives up a margin before it: an answer that arrives after Claude killed the hook would
 * be lost, while one the hook abandons in time is handed to another path by the daemon.
 */

/** `timeout` of the Stop hook entry Muster writes for Claude, seconds (other events keep 5 s). */
export const CLAUDE_STOP_HOOK_TIMEOUT_S = 600;

/** The hook stops waiting this long before Claude's timeout, ms. */
const MARGIN_MS = 15_000;

/** Longest a `muster hook … Stop` waits for a pending decision, ms. */
export const STOP_WAIT_MAX_MS = CLAUDE_STOP_HOOK_TIMEOUT_S * 1000 - MARGIN_MS;

/** Per-event hook timeout for Claude entries, seconds. */
export function claudeHookTimeoutS(event: string): number {
  return event === 'Stop' ? CLAUDE_STOP_HOOK_TIMEOUT_S : 5;
}

/** Claude's default cap on consecutive Stop-hook blocks (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, 2.1.332). */
export const CLAUDE_DEFAULT_BLOCK_CAP = 8;

/**
 * The cap the harness applies, from its environment (the hook inherits Claude's): 0 means no cap,
 * as in Claude (`cap > 0 && blocks > cap`). Anything unparseable is Claude's default.
 */
export function blockCapFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP?.trim();
  if (!raw || !/^-?\d+$/.test(raw)) return CLAUDE_DEFAULT_BLOCK_CAP;
  return Math.max(0, Number(raw));
}
