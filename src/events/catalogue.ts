/**
 * Every event Muster publishes: its name (`domain.noun.verb`) and the type of its payload, in one
 * place, in the spirit of opencode's `BusEvent.define`. `publish` and `subscribe` are typed by it, so a
 * publisher cannot send a payload its subscribers do not expect, and a subscriber reads `event.data`
 * without a cast. The SSE stream carries exactly these (`event:` the name, `data:` the payload as
 * JSON), plus `daemon.hello`, which the stream writes to each client itself (StreamCatalogue).
 * Types only: the board imports this module too.
 */
import type { Harness, Session } from '../core/session.ts';
import type { HookStatus } from '../harnesses/adapter.ts';
import type { ActionRecord, IndexingStatus } from '../hub/index.ts';
import type { DeliveryRecord, Page } from '../pager/index.ts';
import type { Goal, HandoffWhy, Verdict } from '../goals/index.ts';
import type { LaunchRecord } from '../launch/index.ts';
import type { Settings } from '../store/settings.ts';
import type { FleetHost } from '../fleet/types.ts';

/** The fields of a session that make its status (the hub compares them to say it changed). */
export type StatusFields = Pick<Session, 'status' | 'waitingFor' | 'live'>;

/** The page events: each carries the whole page after the change. */
export type PageEventType = 'page.opened' | 'page.delivered' | 'page.answered' | 'page.cancelled' | 'page.dismissed' | 'page.expired';

export interface EventCatalogue extends Record<PageEventType, Page> {
  /** The daemon answers on its port (published once, before any client can be connected). */
  'daemon.ready': { pid: number; port: number };

  /** A session is new or any of its fields changed: the hub's session, whole (without the pane, which the HTTP route adds). */
  'session.upserted': { session: Session };
  /** A session left its source's listing (or, with `hostId`, another host's session left the fleet's view). */
  'session.removed': Pick<Session, 'harness' | 'id' | 'hostId'>;
  /** Status, reason or liveness changed (sent besides the upsert, for clients that only follow status). */
  'session.status.changed': Pick<Session, 'harness' | 'id' | 'status' | 'waitingFor' | 'live' | 'statusSince' | 'host' | 'hostId'> & { previous: StatusFields };
  /** An action (focus, resume, end) finished, with its outcome. */
  'session.action.recorded': ActionRecord;

  /** A notification channel tried to deliver a page. */
  'page.notification': DeliveryRecord & { pageId: string };

  /** A goal was set, counted, paused, resumed or settled: the whole record; `cleared` when it was removed. */
  'goal.updated': Goal & { cleared?: boolean };
  /** A goal reached a settled status (after its goal.updated). */
  'goal.settled': Goal;
  /** The auditor started (true) or finished (false) judging the goal's last turn. */
  'goal.evaluating': { goalId: string; sessionId: string; evaluating: boolean };
  /** The auditor's verdict on the last turn (null when the audit could not be taken, with the error). */
  'goal.audited': { goalId: string; sessionId: string; verdict: Verdict | null; error: string | null; auditor: string; tokens: number };
  /** A Stop hook could not carry the next turn: the goal was resumed headless or paused. */
  'goal.handoff': { goalId: string; sessionId: string; why: HandoffWhy; via: 'paused' | 'resume' | 'inbox'; detail: string };

  /** A harness hook, plugin or extension reported an event; status is what it asserted, if anything. */
  'hook.event.received': { harness: Harness; event: string; sessionId: string | null; launchId: string | null; status: HookStatus | null; waitingFor: string | null };

  /** `muster <harness>` registered a launch / reported its end. */
  'launch.started': { launch: LaunchRecord };
  'launch.ended': { launch: LaunchRecord };

  /** A cold index moved on (a first start reading a long history): the whole figure. */
  'index.progress.changed': IndexingStatus;
  /** New usage records were stored (a turn ended, a transcript was read): spend views refetch GET /api/usage. */
  'usage.recorded': { harnesses: Harness[] };

  /** The settings after an update, whole. */
  'settings.updated': Settings;

  /** Assignments, overrides, the active pack or a pack changed; clients refetch GET /api/characters. */
  'board.characters.changed': { active?: string };
  /** The canvas scene was saved. */
  'board.scene.saved': { version: number };

  /** Fleet: this host joined, left, reached or lost the fleet's database. */
  'fleet.status.changed': { joined: boolean; connected: boolean; name: string | null; lastError: string | null };
  /** Fleet: another host appeared, left, was renamed, or became reachable or unreachable (the other hosts, whole). */
  'fleet.hosts.changed': { hosts: FleetHost[] };
  /** Fleet: too many other hosts' records changed at once to send one by one; clients refetch sessions, pages and goals. */
  'fleet.resync': { reason: string };
}

export type EventType = keyof EventCatalogue;
export type EventPayload<K extends EventType> = EventCatalogue[K];

/** The first event of every SSE connection, written by the stream itself (never published on the bus). */
export interface HelloPayload {
  pid: number;
  buildId: string;
  /** The bus's last event id when the client connected. */
  lastEventId: number;
  /** True when the replay the client asked for (Last-Event-ID) was impossible: it must refetch. */
  resync: boolean;
}

/** What the SSE stream carries: the bus's events plus its own hello. */
export interface StreamCatalogue extends EventCatalogue {
  'daemon.hello': HelloPayload;
}

/** An event as the bus hands it to subscribers: a union discriminated by `type`. */
export type MusterEvent<K extends EventType = EventType> = {
  [P in K]: {
    /** Monotonically increasing per daemon (the SSE `id:`). */
    id: number;
    type: P;
    /** ISO time the event was published. */
    at: string;
    data: EventCatalogue[P];
  };
}[K];

/** The publishing half of the bus, for ports that only publish (goals). Must not throw. */
export type Publish = <K extends EventType>(type: K, data: EventPayload<K>) => void;
