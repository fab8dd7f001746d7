/**
 * Goals on live sessions no in-process reporter covers but whose harness runs a server Muster can
 * prompt (OpenCode's `opencode serve`, or a TUI started with `--port` whose plugin is not loaded:
 * `Session.promptable`). A turn has ended when the session is idle and its transcript has a final
 * assistant message newer than the last one judged (not only on a working → idle transition, which a
 * turn faster than the file watch can skip); the report is that message's text, and the driver's
 * continuation goes back through the server (the source's `prompt`). Sessions whose extension or plugin
 * reports for them — it listens on the inbox, or it sent a hook event for the session in the last
 * minute — report their own turns, so they are left to it: judging the turn here too would count it twice
 * and send two continuations (seen with the OpenCode plugin when a new session's first turn ended before
 * the plugin's inbox poll named it). The minute lets a session later hosted without the plugin (`opencode
 * serve`) be driven here again.
 */
import type { EventBus } from '../events/index.ts';
import type { Goals } from '../goals/index.ts';
import type { Hub } from '../hub/index.ts';
import type { Inbox } from '../inbox/index.ts';
import type { Session } from '../core/session.ts';

export interface ServerTurnsOptions {
  bus: EventBus;
  hub: Hub;
  inbox: Inbox;
  goals: Goals;
  log(line: string): void;
  /** Default: Date.now. */
  clock?: () => number;
}

/** A hook event this recent says the session's own extension or plugin reports its turns. */
const REPORTER_FRESH_MS = 60_000;

const total = (t: Session['tokens']) => t.input + t.output + t.cacheRead + t.cacheWrite;

export function watchServerTurns(o: ServerTurnsOptions): () => void {
  /** Time of the last assistant message judged, per session. */
  const judged = new Map<string, string>();
  /** Cumulative tokens when each session's last turn was judged (the next turn's delta starts there). */
  const tokensAt = new Map<string, number>();
  /** Sessions being judged now, and whether another event came meanwhile (then they are looked at again). */
  const busy = new Map<string, boolean>();
  /** When an in-process reporter last sent a hook event for each session (bounded: the oldest go first). */
  const reported = new Map<string, number>();
  const clock = o.clock ?? Date.now;
  const reportsItself = (id: string): boolean => clock() - (reported.get(id) ?? -Infinity) <= REPORTER_FRESH_MS;

  async function consider(id: string): Promise<void> {
    const s = o.hub.get(id);
    // An idle session on `opencode serve` is listed dormant (the server hosts many), yet promptable.
    if (!s || s.promptable !== true || s.status === 'working' || s.status === 'waiting' || reportsItself(id) || o.inbox.listening(id)) return;
    const source = o.hub.source(s.harness);
    if (!source?.tail) return;
    const goal = await o.goals.forSession(id);
    if (goal?.status !== 'active') return;
    const last = [...(await source.tail(id, 20))].reverse().find((m) => m.role === 'assistant' && m.at !== null);
    const since = [judged.get(id), goal.updatedAt].filter((x): x is string => !!x).sort().at(-1) ?? goal.createdAt;
    if (!last?.at || last.at <= since) return;
    judged.set(id, last.at);
    const now = total(s.tokens);
    const before = tokensAt.get(id);
    tokensAt.set(id, now);
    // delivers: false — the driver sends the continuation itself, through the continuation port.
    await o.goals.onTurnFinished({ sessionId: id, harness: s.harness, lastAssistantText: last.text, tokens: before === undefined ? 0 : Math.max(0, now - before), model: s.model, cwd: s.cwd, delivers: false });
  }

  return o.bus.subscribe((e) => {
    if (e.type === 'hook.event.received') {
      const sessionId = (e.data as { sessionId?: unknown }).sessionId;
      if (typeof sessionId === 'string' && sessionId !== '') {
        reported.delete(sessionId);
        reported.set(sessionId, clock());
        if (reported.size > 10_000) reported.delete(reported.keys().next().value as string);
      }
      return;
    }
    if (e.type !== 'session.status.changed' && e.type !== 'session.upserted') return;
    const d = e.data as { id?: unknown; session?: { id?: unknown } };
    const id = typeof d.id === 'string' ? d.id : typeof d.session?.id === 'string' ? d.session.id : null;
    if (id === null) return;
    if (busy.has(id)) {
      busy.set(id, true);
      return;
    }
    const run = (): void => {
      busy.set(id, false);
      void consider(id)
        .catch((err: unknown) => o.log(`[goals] ${id}: the server turn could not be judged: ${(err as Error).message}`))
        .finally(() => {
          if (busy.get(id) === true) run();
          else busy.delete(id);
        });
    };
    run();
  });
}
