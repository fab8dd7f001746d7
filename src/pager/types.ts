/**
 * Pages: an agent's question (needs an answer) or notice (needs none) to the operator.
 * Lifecycle of a question: pending → answered → delivered, or pending → cancelled | expired.
 * A notice: pending (unread) → dismissed, or expired. The answer is a committed row before any
 * waiting tool call sees it, so a crash between the two loses nothing.
 */
import type { Harness } from '../core/session.ts';

export const PAGE_KINDS = ['question', 'notice'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

export const PAGE_STATUSES = ['pending', 'answered', 'delivered', 'cancelled', 'expired', 'dismissed'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

export const URGENCIES = ['low', 'normal', 'high'] as const;
export type Urgency = (typeof URGENCIES)[number];

export const NOTICE_LEVELS = ['info', 'success', 'warning', 'error'] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

/** How the asking session was identified, strongest first. */
export type AttributionVia = 'header' | 'codex-thread' | 'cwd' | 'none';

export interface Attribution {
  sessionId: string | null;
  harness: Harness | null;
  via: AttributionVia;
  /** The wrapper's launch id (x-muster-launch-id), when it set one. */
  launchId: string | null;
  /** The caller's working directory, when known. */
  cwd: string | null;
  /** Why a session could not be named (e.g. "2 live claude sessions in /repo"). */
  note: string | null;
}

export interface PageAnswer {
  text: string;
  /** Index into `choices` (0-based) when the operator picked one; null for free text. */
  choice: number | null;
  /** Who answered: 'operator' through the API/CLI/board. */
  by: string;
}

/** One notification attempt for a page (desktop, webhook…); a failure is recorded, never called sent. */
export interface DeliveryRecord {
  channel: string;
  status: 'sent' | 'failed' | 'collapsed';
  error: string | null;
  at: string;
}

export interface Page {
  /** `pag_` + 26 time-sortable characters. */
  id: string;
  kind: PageKind;
  /** The asking session, or null when unattributed (see `attribution.note`). */
  sessionId: string | null;
  harness: Harness | null;
  attribution: Attribution;
  /** What per-session limits count by: the session id, else the launch id, else the MCP session. */
  limitKey: string;
  /** Question text (or the notice's message). Plain text: never rendered as HTML or Markdown. */
  question: string;
  /** Offered answers, or null for free text. */
  choices: string[] | null;
  urgency: Urgency;
  /** Notice level; null for questions. */
  level: NoticeLevel | null;
  context: string | null;
  status: PageStatus;
  answer: PageAnswer | null;
  createdAt: string;
  answeredAt: string | null;
  deliveredAt: string | null;
  /** When it was cancelled, expired or dismissed. */
  closedAt: string | null;
  /** Who closed it: 'agent' (cancel_page), 'operator' (dismiss), 'expiry'. */
  closedBy: string | null;
  expiresAt: string;
  deliveries: DeliveryRecord[];
  /** Fleet: the name of the host whose agent asked, on another host's page only. */
  host?: string;
  /** Fleet: the owning host's id, on another host's page only. */
  hostId?: string;
}

export interface PageFilter {
  status?: PageStatus;
  kind?: PageKind;
  sessionId?: string;
  /** Newest first; default LIMITS.listed (200), at most LIMITS.listedMax (1000). */
  limit?: number;
}

/**
 * The store port for pages. Async so a PostgreSQL implementation can satisfy it. Transitions are
 * conditional updates (compare-and-set on the status): each returns the page after the attempt, and
 * `changed` says whether this call made the transition — so two concurrent answers cannot both win.
 */
export interface PagesRepository {
  insert(page: Page): Promise<void>;
  get(id: string): Promise<Page | undefined>;
  list(filter?: PageFilter): Promise<Page[]>;
  /** Pending pages of one kind with this `limitKey`. */
  countPending(limitKey: string, kind: PageKind): Promise<number>;
  answer(id: string, answer: PageAnswer, at: string): Promise<Transition>;
  markDelivered(id: string, at: string): Promise<Transition>;
  close(id: string, status: 'cancelled' | 'dismissed', by: string, at: string): Promise<Transition>;
  /** Expires every pending page whose expiresAt is at or before `now`; returns them. */
  expireDue(now: string): Promise<Page[]>;
  /** The earliest expiresAt of a pending page; null when none is pending. */
  nextExpiry(): Promise<string | null>;
  recordDelivery(id: string, record: DeliveryRecord): Promise<void>;
  /** Page counts by kind and status. */
  counts(): Promise<Record<string, number>>;
}

export interface Transition {
  page: Page | undefined;
  changed: boolean;
}
