/**
 * The safety rescan: every source re-listed now and then, for the changes a watch missed. While
 * things happen (a watch event, a sweep that found a dead pid, a published change), it comes every
 * `baseMs` (settings.rescanSeconds). While nothing does, each wait doubles, up to 8× the setting; the
 * start's full listing counts as one, so an idle daemon re-lists first after twice the setting. Any
 * activity brings the next one back to `baseMs` after the last.
 */
export interface RescanOptions {
  /** The setting, ms (read at each arming). */
  baseMs(): number;
  /** Re-lists every source. */
  rescan(): void;
  /** Default: Date.now. */
  clock?: () => number;
}

export interface RescanTimer {
  /** Something happened: the next rescan is `baseMs` after the last one. */
  activity(): void;
  close(): void;
}

/** The longest wait is 2^this times the setting. */
const MAX_LEVEL = 3;

export function startRescanTimer(o: RescanOptions): RescanTimer {
  const clock = o.clock ?? Date.now;
  let level = 1;
  let active = false;
  let last = clock();
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const arm = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(fire, Math.max(0, last + o.baseMs() * 2 ** level - clock()));
    timer.unref?.();
  };
  const fire = (): void => {
    level = active ? 0 : Math.min(level + 1, MAX_LEVEL);
    active = false;
    last = clock();
    o.rescan();
    arm();
  };
  arm();
  return {
    activity() {
      active = true;
      if (level > 0) {
        level = 0;
        arm();
      }
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
