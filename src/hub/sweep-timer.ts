/**
 * When the liveness sweep runs. A SIGKILLed agent writes nothing, so only a sweep sees it; each costs
 * a read per live pid (discovery/proc/liveness.ts). While things happen (a watch event, a change, a
 * sweep find) it runs every `activeMs`; once nothing has for `quietAfterMs`, every `quietMs`, so fifty
 * idle sessions cost half the reads. Any activity brings the short interval back at once.
 */
export interface SweepTimerOptions {
  sweep(): void;
  /** Interval while things happen, ms. Default: 500. */
  activeMs?: number;
  /** Interval once quiet, ms (never shorter than activeMs). Default: 1000. */
  quietMs?: number;
  /** Quiet after this long without activity, ms. Default: 15000. */
  quietAfterMs?: number;
  /** Default: Date.now. */
  clock?: () => number;
}

export interface SweepTimer {
  activity(): void;
  close(): void;
}

export function startSweepTimer(o: SweepTimerOptions): SweepTimer {
  const clock = o.clock ?? Date.now;
  const activeMs = o.activeMs ?? 500;
  const quietMs = Math.max(activeMs, o.quietMs ?? 1000);
  const quietAfterMs = o.quietAfterMs ?? 15_000;
  let lastActivity = clock();
  let armedFor = 0;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const arm = (): void => {
    if (closed) return;
    armedFor = clock() - lastActivity < quietAfterMs ? activeMs : quietMs;
    timer = setTimeout(tick, armedFor);
    timer.unref?.();
  };
  const tick = (): void => {
    o.sweep();
    arm();
  };
  arm();
  return {
    activity() {
      lastActivity = clock();
      if (armedFor > activeMs && timer) {
        clearTimeout(timer);
        arm();
      }
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
