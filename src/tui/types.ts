/**
 * The TUI's state: what the daemon told us (sessions, pages, goals) plus what the operator is doing
 * (view, selection, filters, an open prompt). Pure data — reducers in state.ts and keys.ts return a
 * new state; nothing here touches the terminal or the network.
 */
import type { Harness, SessionStatus } from '../core/session.ts';
import { emptyStreamState, type StreamSnapshot, type StreamState } from '../events/index.ts';
import type { SpendLine } from './spend.ts';

export type View = 'sessions' | 'pages';

export interface Filters {
  /** Case-insensitive substring over title, id, repo, branch, cwd, reason. */
  text: string;
  status: SessionStatus | null;
  harness: Harness | null;
  /** In a fleet: one host's sessions and pages (its name; THIS_HOST for this host's own). */
  host: string | null;
  /** Show every ended session instead of the most recent `endedLimit`. */
  allEnded: boolean;
}

/** A request to the daemon the app performs on the reducer's behalf. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
  /** What the operator asked for, in words, for the status line ("focus 1a2b3c4d"). */
  label: string;
}

export type Effect = { kind: 'quit' } | { kind: 'suspend' } | { kind: 'redraw' } | ({ kind: 'call' } & ApiCall) | { kind: 'search'; q: string };

/** One transcript search hit as the TUI lists it. */
export interface TranscriptHit {
  harness: string;
  id: string;
  title: string;
  role: string;
  position: number;
  at: string | null;
  snippet: string;
}

/** The transcript search shown in place of the list (`S`); null when none. */
export interface TranscriptSearch {
  query: string;
  /** Null while the daemon answers. */
  hits: TranscriptHit[] | null;
  error: string | null;
  index: number;
}

export type Mode =
  | { kind: 'normal' }
  | { kind: 'help' }
  | { kind: 'input'; purpose: 'search' | 'answer' | 'goal' | 'send' | 'transcripts'; prompt: string; text: string; target: string | null }
  | { kind: 'confirm'; prompt: string; call: ApiCall }
  /** `n`: a new session of `harness` in `cwd`; `text` is its first prompt. */
  | { kind: 'new'; harness: Harness; cwd: string; text: string };

export interface Flash {
  text: string;
  level: 'info' | 'error';
  /** Epoch ms; the status line drops it after a few seconds. */
  at: number;
}

export type Connection = 'connecting' | 'live' | 'reconnecting';

/** Sessions, pages, goals and audits in progress (StreamState), and the operator's view of them. */
export interface TuiState extends StreamState {
  view: View;
  /** Selected row id per view; kept by id so a re-sort does not move the operator's finger. */
  selected: Record<View, string | null>;
  /** Index of the selection when last seen, so a vanished row selects its neighbour. */
  selectedIndex: Record<View, number>;
  /** First visible row per view (scroll position). */
  top: Record<View, number>;
  filters: Filters;
  mode: Mode;
  flash: Flash | null;
  connection: Connection;
  /** Ended sessions shown when `filters.allEnded` is off. */
  endedLimit: number;
  /** Today's spend and the last 7 days for the status line; null until fetched. */
  spend: SpendLine | null;
  transcripts: TranscriptSearch | null;
  /** "indexed 312 / 800 transcripts" while a first start reads a long history; null otherwise. */
  indexing: string | null;
}

export type Snapshot = StreamSnapshot;

/** The host filter's value for this host's own records (another host's are named by their host). */
export const THIS_HOST = 'this host';

/** The host of a session or page in a fleet: another host's name, or THIS_HOST. */
export const hostLabel = (r: { hostId?: string; host?: string }): string => (r.hostId ? (r.host ?? '?') : THIS_HOST);

export function initialState(overrides: Partial<TuiState> = {}): TuiState {
  return {
    ...emptyStreamState(),
    view: 'sessions',
    selected: { sessions: null, pages: null },
    selectedIndex: { sessions: 0, pages: 0 },
    top: { sessions: 0, pages: 0 },
    filters: { text: '', status: null, harness: null, host: null, allEnded: false },
    mode: { kind: 'normal' },
    flash: null,
    connection: 'connecting',
    endedLimit: 20,
    spend: null,
    transcripts: null,
    indexing: null,
    ...overrides,
  };
}
