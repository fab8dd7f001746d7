/**
 * Muster's OpenCode status plugin, built into a self-contained module (dist/status-assets/) that the
 * wrapper and `hooks install` drop beside a tui.json. A TUI plugin, not a server plugin: OpenCode
 * 1.18.33 makes every server plugin wait for the `@opencode-ai/plugin` npm install it starts in each
 * config directory, which offline blocks start-up for minutes (see launch.ts). A TUI plugin is the
 * module's default export `{ id, tui }`; its `api.event.on` hands over the same bus events as a server
 * plugin's `event` hook, and `api.client` is the SDK client of the server the TUI talks to (observed
 * with 1.18.33: `session.messages`, `session.promptAsync`).
 *
 * Besides status, it drives goals: a `session.idle` is the turn end — reported with the session's last
 * assistant text, and when the daemon answers with a continuation (a goal's audit said keep going) the
 * plugin sends it with `promptAsync`, unless the session went busy again meanwhile (the operator
 * typed). Prompts the daemon has for the TUI's sessions (a goal resumed by a page's answer, a prompt
 * from the board) arrive through its inbox.
 */
import { reportEvent } from '../status-assets/daemon-link.ts';
import { listenInbox, turnEndDecision } from '../status-assets/turn-end.ts';
import { OPENCODE_PLUGIN_EVENTS } from './hooks.ts';

interface BusEvent {
  type?: unknown;
  properties?: Record<string, unknown>;
}

interface MessagePart {
  type?: string;
  text?: string;
}

/** The parts of OpenCode's SDK client the plugin calls (flat-argument methods, 1.18.33). */
interface SdkClient {
  session: {
    messages(args: { sessionID: string; limit?: number }): Promise<{ data?: { info?: { role?: string; id?: string; time?: { completed?: unknown } }; parts?: MessagePart[] }[] } | undefined>;
    promptAsync(args: { sessionID: string; parts: { type: 'text'; text: string }[] }): Promise<unknown>;
  };
}

interface TuiApi {
  event: { on(type: string, handler: (event: BusEvent) => void): void };
  client?: SdkClient;
}

/** Sessions this TUI has shown events of, newest first (the inbox listens for these). */
const MAX_SESSIONS = 8;

function forward(event: BusEvent): void {
  if (!event || typeof event.type !== 'string' || !(OPENCODE_PLUGIN_EVENTS as readonly string[]).includes(event.type)) return;
  const p = event.properties ?? {};
  const permission = typeof p.permission === 'string' ? p.permission : typeof p.type === 'string' ? p.type : undefined;
  void reportEvent('opencode', event.type, { sessionID: p.sessionID, status: p.status, permission });
}

/**
 * The session's last assistant message: its text (the turn's report) and its id (the turn it closes);
 * `movedOn` when the session is past that turn already — a newer user message (a continuation, or the
 * operator typed) or a reply not completed yet (the next turn is running), which reports its own end.
 */
async function lastAssistant(client: SdkClient, sessionID: string): Promise<{ text: string | null; id: string | null; completedAt: number | null; movedOn: boolean }> {
  try {
    const r = await client.session.messages({ sessionID, limit: 10 });
    const data = r?.data ?? [];
    const last = [...data].reverse().find((m) => m.info?.role === 'assistant');
    const text = (last?.parts ?? []).filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text).join('').trim();
    const movedOn = last !== undefined && (data.at(-1) !== last || last.info?.time?.completed === undefined);
    const completed = last?.info?.time?.completed;
    return { text: text || null, id: typeof last?.info?.id === 'string' ? last.info.id : null, completedAt: typeof completed === 'number' ? completed : null, movedOn };
  } catch {
    return { text: null, id: null, completedAt: null, movedOn: false };
  }
}

export default {
  id: 'muster-status',
  tui: async (api: TuiApi): Promise<void> => {
    // An auditor run (MUSTER_AUDITOR) is not a session to report or drive.
    if (process.env.MUSTER_AUDITOR) return;
    const seen: string[] = [];
    /** When each session last went busy: a continuation decided before that stands aside. */
    const busyAt = new Map<string, number>();
    const client = api.client;
    for (const type of OPENCODE_PLUGIN_EVENTS) {
      if (type === 'session.idle' && client) continue;
      api.event.on(type, (event) => {
        const p = event?.properties ?? {};
        const id = typeof p.sessionID === 'string' ? p.sessionID : null;
        if (id) {
          seen.splice(0, seen.length, id, ...seen.filter((s) => s !== id).slice(0, MAX_SESSIONS - 1));
          if (type === 'session.status' && (p.status as { type?: unknown } | undefined)?.type === 'busy') busyAt.set(id, Date.now());
        }
        forward(event);
      });
    }
    if (!client) return;
    api.event.on('session.idle', (event) => {
      const id = event?.properties?.sessionID;
      if (typeof id !== 'string') return;
      const idleAt = Date.now();
      void (async () => {
        // OpenCode can go idle twice after one turn: the last message's id lets the daemon count the turn once.
        const last = await lastAssistant(client, id);
        // The session went busy again before its reply was read (a second idle of the same turn, read after the
        // continuation started; the busy event can come after the read under load, the messages cannot lie):
        // the newest reply belongs to the next turn, which reports its own end.
        if ((busyAt.get(id) ?? 0) > idleAt || last.movedOn) return;
        // When the turn ended (its reply's completion, else the idle): a goal set while the messages were read is not this turn's.
        const next = await turnEndDecision('opencode', 'session.idle', { sessionID: id, muster_turn_id: last.id, muster_turn_ended_at: last.completedAt ?? idleAt }, last.text);
        if (next === null || (busyAt.get(id) ?? 0) > idleAt) return;
        await client.session.promptAsync({ sessionID: id, parts: [{ type: 'text', text: next }] }).catch(() => undefined);
      })();
    });
    listenInbox('opencode', () => [...seen], (sessionID, text) => client.session.promptAsync({ sessionID, parts: [{ type: 'text', text }] }).then(() => undefined));
  },
};
