/**
 * Sends one notification per new page through every available channel, records each outcome on the
 * page (sent / failed with its reason / collapsed), and collapses duplicates: the same text from the
 * same session within the window is recorded as `collapsed` instead of buzzing the operator again.
 */
import type { EventBus } from '../events/index.ts';
import type { NotificationChannel, PageNotification } from './channels/channel.ts';
import type { DeliveryRecord, Page, PagesRepository } from './types.ts';

export interface NotifierOptions {
  /** The channels enabled right now (settings are read fresh for each page). */
  channels(): Promise<NotificationChannel[]>;
  repo: Pick<PagesRepository, 'recordDelivery'>;
  bus: EventBus;
  /** Link to a page on the board. */
  boardUrl(pageId: string): string;
  /** Duplicate window in ms. Default: 600000 (10 min). */
  dedupeMs?: number;
  clock?: () => number;
  log?(line: string): void;
}

export interface Notifier {
  /** Never throws; resolves when every channel has answered and the outcomes are recorded. */
  notify(page: Page): Promise<DeliveryRecord[]>;
}

const MESSAGE_MAX = 500;

export function describeSession(page: Page): string {
  const cwd = page.attribution.cwd;
  const where = cwd ? ` (${cwd.split('/').filter(Boolean).pop() ?? cwd})` : '';
  if (page.sessionId) return `${page.harness ?? 'agent'} ${page.sessionId.slice(0, 8)}${where}`;
  return `unattributed ${page.harness ?? 'agent'}${where}`;
}

export function toNotification(page: Page, url: string): PageNotification {
  const session = describeSession(page);
  const reason = page.kind === 'question' ? 'asks a question' : (page.level ?? 'info');
  const text = page.question.length > MESSAGE_MAX ? `${page.question.slice(0, MESSAGE_MAX - 1)}…` : page.question;
  const choices = page.choices ? `\nChoices: ${page.choices.map((c, i) => `[${i}] ${c}`).join('  ')}` : '';
  return {
    pageId: page.id, kind: page.kind, session, sessionId: page.sessionId, harness: page.harness, reason,
    title: `Muster: ${session} — ${reason}`, message: `${text}${choices}`, urgency: page.urgency, choices: page.choices, url,
  };
}

export function createNotifier(opts: NotifierOptions): Notifier {
  const clock = opts.clock ?? Date.now;
  const window = opts.dedupeMs ?? 600_000;
  const log = opts.log ?? (() => {});
  const recent = new Map<string, number>();

  async function record(page: Page, r: DeliveryRecord): Promise<void> {
    try {
      await opts.repo.recordDelivery(page.id, r);
      opts.bus.publish('page.notification', { pageId: page.id, ...r });
    } catch (e) {
      log(`[pager] cannot record a delivery for ${page.id}: ${(e as Error).message}`);
    }
  }

  return {
    async notify(page) {
      const now = clock();
      for (const [k, at] of recent) if (now - at > window) recent.delete(k);
      const key = `${page.limitKey}\u0000${page.kind}\u0000${page.question}`;
      const at = new Date(now).toISOString();
      let channels: NotificationChannel[];
      try {
        channels = await opts.channels();
      } catch (e) {
        log(`[pager] channels unavailable: ${(e as Error).message}`);
        channels = [];
      }
      const out: DeliveryRecord[] = [];
      if (recent.has(key)) {
        for (const ch of channels) out.push({ channel: ch.name, status: 'collapsed', error: null, at });
      } else {
        recent.set(key, now);
        const n = toNotification(page, opts.boardUrl(page.id));
        const results = await Promise.all(
          channels.map(async (ch): Promise<DeliveryRecord | null> => {
            if (!(await ch.available().catch(() => false))) return null;
            const r = await ch.send(n).catch((e: Error) => ({ ok: false as const, error: `channel threw: ${e.message}` }));
            return { channel: ch.name, status: r.ok ? 'sent' : 'failed', error: r.ok ? null : r.error, at };
          }),
        );
        for (const r of results) if (r) out.push(r);
      }
      for (const r of out) await record(page, r);
      return out;
    },
  };
}
