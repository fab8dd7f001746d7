/**
 * When the liveness sweep runs. A SIGKILLed agent writes nothing, so only a sweep sees it; each costs
 * a wakeup and a read per live pid (discovery/proc/liveness.ts) — with fifty live sessions, about as
 * much as the rest of an idle daemon together. So it backs off while nothing happens: every `activeMs`
 * while things happen (a watch event, a change, a sweep find); every `quietMs` once nothing has for
 * `quietAfterMs`; every `stillMs` once nothing has for `stillAfterMs`. Any activity brings the short
 * interval back at once. A kill is seen within the interval in force plus the re-list (debounce and
 * list, tens of ms): under 2.1 s at the longest default, inside the 3 s Muster promises.
 *
 * The timer starts still: its own start is not activity. It starts after the hub's first listing, and a
 * daemon that comes up among quiet sessions has nothing to sweep for sooner; the first watch event or
 * change brings the short interval. (Starting active cost the first idle minute 71 sweeps instead of 30:
 * 0.16 % of a core with fifty live sessions, against 0.08 % once still.)
 */
export interface SweepTimerOptions {
  sweep(): void;
  /** Interval while things happen, ms. Default: 500. */
  activeMs?: number;
  /** Interval once quiet, ms (never shorter than activeMs). Default: 1000. */
  quietMs?: number;
  /** Quiet after this long without activity, ms. Default: 15000. */
  quietAfterMs?: number;
  /** Interval once still, ms (never shorter than quietMs). Default: 2000. */
  stillMs?: number;
  /** Still after this long without activity, ms (never shorter than quietAfterMs). Default: 60000. */
  stillAfterMs?: number;
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
  const stillMs = Math.max(quietMs, o.stillMs ?? 2000);
  const stillAfterMs = Math.max(quietAfterMs, o.stillAfterMs ?? 60_000);
  let lastActivity = -Infinity;
  let armedFor = 0;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const arm = (): void => {
    if (closed) return;
    const idle = clock() - lastActivity;
    armedFor = idle < quietAfterMs ? activeMs : idle < stillAfterMs ? quietMs : stillMs;
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
