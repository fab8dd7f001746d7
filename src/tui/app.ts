/**
 * The running TUI: wires the terminal, the daemon's API and its event stream to the pure state,
 * key and render functions. Data flow: subscribe to /api/events → on the hello, fetch the snapshot
 * (sessions, pages, goals) → apply queued and later events → repaint (coalesced to one frame per
 * turn of the event loop). No polling: the only timer repaints relative times once a second.
 */
import { handleKey } from './keys.ts';
import { FLASH_MS, renderFrame } from './render.ts';
import { createScreen } from './screen.ts';
import { applyEvent, flash, isResync, setConnection } from './state.ts';
import { initialState, type ApiCall, type Effect, type TranscriptHit, type TuiState } from './types.ts';
import { hitsOf, TUI_SEARCH_LIMIT } from './transcript-search.ts';
import type { SearchResult } from '../search/types.ts';
import type { SseMessage } from './sse-client.ts';
import type { Terminal } from './terminal.ts';
import type { Session } from '../core/session.ts';
import { LIMITS, type Page } from '../pager/index.ts';
import type { Goal } from '../goals/index.ts';
import type { UsageReport } from '../usage/index.ts';
import { lastSevenDays, spendLineOf, spendPath } from './spend.ts';
import { indexingLabel, type IndexingFigure } from '../core/indexing.ts';
import { indexingAfterListing, withGoalsListing, withPagesListing, withSessionsListing, type HeldEvent } from '../events/index.ts';

export interface TuiApi {
  /** Calls `/api<path>`; resolves with the JSON body, rejects with an Error (`code` when the daemon named one). */
  call(method: ApiCall['method'], path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export interface EventHandlers {
  onMessage(message: SseMessage): void;
  onState(state: 'open' | 'closed'): void;
}

/** Starts the event stream; the real one is `createSseClient` against /api/events. */
export type EventsPort = (handlers: EventHandlers) => { close(): void };

export interface TuiOptions {
  api: TuiApi;
  events: EventsPort;
  terminal: Terminal;
  /** False under NO_COLOR. */
  color: boolean;
  /** Default: Date.now. */
  clock?: () => number;
  /** Relative-time repaint interval, ms. Default: 1000. */
  tickMs?: number;
  /** Extra state (tests: endedLimit). */
  initial?: Partial<TuiState>;
}

export interface Tui {
  /** Enters the terminal and connects; resolves once the first frame is painted. */
  start(): Promise<void>;
  /** Resolves with the exit code once the operator quits (or stop() is called). */
  readonly done: Promise<number>;
  stop(code?: number): void;
  state(): TuiState;
}

function outcomeOf(body: Record<string, unknown>): string {
  if (typeof body.outcome === 'string') return body.outcome.replace('_', ' ');
  if (typeof body.delivered === 'string') return `${body.delivered === 'resumed' ? 'resumed with it' : `sent (${body.delivered})`}${body.queued === true ? ', queued behind the running turn' : ''}`;
  const page = body.page as { status?: string } | undefined;
  if (page?.status) return page.status;
  const goal = body.goal as { status?: string } | undefined;
  if (goal?.status) return `goal ${goal.status}`;
  if ('cleared' in body) return body.cleared ? 'cleared' : 'no goal to clear';
  return 'done';
}

export function createTui(opts: TuiOptions): Tui {
  const clock = opts.clock ?? Date.now;
  const term = opts.terminal;
  const screen = createScreen((d) => term.write(d));
  let state = initialState(opts.initial);
  let scheduled = false;
  let stopped = false;
  let snapshotReady = false;
  let fetching = false;
  // The first snapshot is fetched at once, in parallel with the event stream's connect, so the first
  // frame does not wait for both in turn; it may predate the stream, so once the stream says hello a
  // snapshot requested after that is fetched too (events in between are never lost).
  let helloSeen = false;
  let snapshotAfterHello = false;
  let refetch = false;
  let queue: SseMessage[] = [];
  /** Figures (index.progress.changed) that came while a snapshot was on its way. */
  let figures: SseMessage[] = [];
  const disposers: (() => void)[] = [];
  let finish!: (code: number) => void;
  const done = new Promise<number>((r) => (finish = r));

  const paint = () => {
    scheduled = false;
    if (stopped) return;
    const { columns, rows } = term.size();
    const frame = renderFrame(state, { columns, rows, now: clock(), color: opts.color });
    state = { ...state, top: frame.top };
    screen.paint(frame.lines);
  };
  const schedule = () => {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(paint);
  };
  const update = (next: TuiState) => {
    if (next === state) return;
    state = next;
    schedule();
  };

  // Today's spend: fetched with the snapshot, then again when the daemon stores usage (a turn ended), in bursts of one.
  let spendTimer: NodeJS.Timeout | null = null;
  async function fetchSpend(): Promise<void> {
    const days = lastSevenDays(clock());
    try {
      const body = (await opts.api.call('GET', spendPath(days))) as unknown as UsageReport;
      update({ ...state, spend: spendLineOf(body, days) });
    } catch {
      // The line simply stays as it was (an older daemon has no /api/usage).
    }
  }
  const spendSoon = (): void => {
    if (spendTimer || stopped) return;
    spendTimer = setTimeout(() => {
      spendTimer = null;
      void fetchSpend();
    }, 500);
    spendTimer.unref();
  };
  disposers.push(() => spendTimer && clearTimeout(spendTimer));

  async function fetchSnapshot(): Promise<void> {
    if (fetching) {
      refetch = true;
      return;
    }
    fetching = true;
    snapshotReady = false;
    const afterHello = helloSeen;
    try {
      const [s, p, g] = await Promise.all([opts.api.call('GET', '/sessions'), opts.api.call('GET', `/pages?limit=${LIMITS.listed}`), opts.api.call('GET', '/goals')]);
      // The events queued meanwhile go on top of the lists; of the sessions' and the figure's, only those
      // after the event the listing names as its last (events/held-events.ts).
      const eventId = typeof s.eventId === 'number' ? s.eventId : undefined;
      const held: HeldEvent[] = [...queue, ...figures].map((m) => ({ type: m.type, data: m.data, id: m.id === null ? NaN : Number(m.id) }));
      queue = [];
      figures = [];
      const next = withGoalsListing(withPagesListing(withSessionsListing(state, (s.sessions ?? []) as Session[], eventId, held), (p.pages ?? []) as Page[], held), (g.goals ?? []) as Goal[], held);
      snapshotReady = true;
      snapshotAfterHello ||= afterHello;
      update({ ...next, indexing: indexingLabel(indexingAfterListing((s.indexing ?? null) as IndexingFigure | null, eventId, held)) });
    } catch (e) {
      update(flash(state, `could not load from the daemon: ${(e as Error).message}; retrying`, 'error', clock()));
      const t = setTimeout(() => void fetchSnapshot(), 2000);
      t.unref();
    } finally {
      fetching = false;
      if (refetch && !stopped) {
        refetch = false;
        void fetchSnapshot();
      }
    }
  }

  function onMessage(m: SseMessage): void {
    if (m.type === 'daemon.hello') {
      helloSeen = true;
      update(setConnection(state, 'live'));
      if (!snapshotAfterHello || isResync(m)) {
        void fetchSnapshot();
        spendSoon();
      }
      return;
    }
    // Fleet: too many other hosts' records changed at once to send one by one — fetch them again.
    if (m.type === 'fleet.resync') return void fetchSnapshot();
    if (m.type === 'usage.recorded') return spendSoon();
    if (m.type === 'index.progress.changed') {
      if (fetching) figures.push(m);
      return update({ ...state, indexing: indexingLabel(m.data) });
    }
    if (!snapshotReady) queue.push(m);
    else update(applyEvent(state, m));
  }

  async function run(effect: Effect): Promise<void> {
    switch (effect.kind) {
      case 'quit':
        return tui.stop(0);
      case 'redraw':
        screen.invalidate();
        return schedule();
      case 'suspend':
        return term.suspend(() => {
          screen.invalidate();
          schedule();
        });
      case 'search': {
        const q = effect.q;
        const apply = (patch: { hits?: TranscriptHit[]; error?: string }) => {
          // A newer search or Esc since: this answer is not wanted.
          if (state.transcripts?.query !== q) return;
          update({ ...state, transcripts: { ...state.transcripts, hits: patch.hits ?? [], error: patch.error ?? null, index: 0 } });
        };
        try {
          const body = await opts.api.call('GET', `/search?q=${encodeURIComponent(q)}&limit=${TUI_SEARCH_LIMIT}`);
          apply({ hits: hitsOf(body.results as SearchResult[]) });
        } catch (e) {
          apply({ error: (e as Error).message });
        }
        return;
      }
      case 'call': {
        update(flash(state, `${effect.label}…`, 'info', clock()));
        try {
          const body = await opts.api.call(effect.method, effect.path, effect.body);
          update(flash(state, `${effect.label}: ${outcomeOf(body)}`, 'info', clock()));
        } catch (e) {
          update(flash(state, `${effect.label} failed: ${(e as Error).message}`, 'error', clock()));
        }
      }
    }
  }

  const tui: Tui = {
    done,
    state: () => state,
    async start() {
      term.enter();
      disposers.push(term.onKey((key) => {
        const { rows } = term.size();
        const r = handleKey(state, key, { now: clock(), pageSize: Math.max(1, rows - 10) });
        update(r.state);
        for (const e of r.effects) void run(e);
      }));
      disposers.push(term.onResize(() => {
        screen.invalidate();
        schedule();
      }));
      const stream = opts.events({ onMessage, onState: (s) => update(setConnection(state, s === 'open' ? state.connection : 'reconnecting')) });
      disposers.push(() => stream.close());
      void fetchSnapshot();
      const tick = setInterval(() => {
        if (state.flash && clock() - state.flash.at >= FLASH_MS) state = { ...state, flash: null };
        schedule();
      }, opts.tickMs ?? 1000);
      tick.unref();
      disposers.push(() => clearInterval(tick));
      paint();
    },
    stop(code = 0) {
      if (stopped) return;
      stopped = true;
      for (const d of disposers.splice(0)) {
        try {
          d();
        } catch {
          // Keep going: the terminal must be restored whatever failed before it.
        }
      }
      term.restore();
      finish(code);
    },
  };
  return tui;
}
