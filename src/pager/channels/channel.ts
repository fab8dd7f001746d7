/**
 * The notification port: one message about one page, sent through one channel (desktop, webhook…).
 * Contract (channels/contract.test-support.ts): `send` never throws — a failure is returned as
 * `{ ok: false, error }` so it is recorded and shown, never reported as sent.
 */
export interface PageNotification {
  pageId: string;
  kind: 'question' | 'notice';
  /** Human name of the asking session, e.g. "claude 3f2a9c1e (~/src/app)" or "unattributed agent". */
  session: string;
  sessionId: string | null;
  harness: string | null;
  /** Why the operator is reached: "asks a question", "warning", … */
  reason: string;
  title: string;
  /** The page's text (plain text; may be shortened). */
  message: string;
  urgency: 'low' | 'normal' | 'high';
  choices: string[] | null;
  /** Link to the page on the board. */
  url: string;
}

export type SendResult = { ok: true } | { ok: false; error: string };

export interface NotificationChannel {
  /** Stable name recorded with each delivery ("desktop", "webhook"). */
  readonly name: string;
  /** False when the channel cannot work on this host (e.g. no notify-send); it is then skipped. */
  available(): Promise<boolean>;
  send(n: PageNotification): Promise<SendResult>;
}
