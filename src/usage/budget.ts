/**
 * Budget alerts: when today's spend reaches `dailyBudgetUsd`, or this month's `monthlyBudgetUsd`
 * (0 = no budget), one notification names the total and the top spenders. Each crossing notifies
 * once per day or month, across restarts (the store remembers it). Checked after new usage records
 * arrive, at most once per `debounceMs`.
 */
import type { UsageService } from './service.ts';
import type { UsageRepository, UsageRow } from './types.ts';
import { createZone } from './zone.ts';

export interface BudgetSettings {
  dailyBudgetUsd: number;
  monthlyBudgetUsd: number;
}

export interface BudgetWatchOptions {
  usage: UsageService;
  repo: Pick<UsageRepository, 'claimAlert'>;
  settings(): Promise<BudgetSettings>;
  /** Sends the notification (the pager's notice: desktop, webhook, the board's inbox). Must not throw. */
  notify(message: string): Promise<void>;
  /** Zone the day and month are cut in (asked at each check that has a budget to check). */
  tz(): string;
  clock?: () => number;
  /** Default: 2000. */
  debounceMs?: number;
  log?(line: string): void;
}

export interface BudgetWatch {
  /** New records arrived: check soon. */
  poke(): void;
  /** Checks now; resolves with the alerts sent. Never throws. */
  check(): Promise<string[]>;
  close(): void;
}

const money = (n: number): string => `$${n.toFixed(2)}`;

function topSpenders(rows: UsageRow[]): string {
  return rows.slice(0, 3).map((r) => `${r.harness ?? ''} ${r.key.slice(0, 8)}${r.label ? ` "${r.label.slice(0, 40)}"` : ''} ${money(r.pricedUsd)}`.trim()).join('; ');
}

export function createBudgetWatch(opts: BudgetWatchOptions): BudgetWatch {
  const clock = opts.clock ?? Date.now;
  const log = opts.log ?? (() => {});
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<string[]> | null = null;

  async function checkOne(kind: 'daily' | 'monthly', budget: number, today: string, tz: string): Promise<string | null> {
    if (!(budget > 0)) return null;
    const period = kind === 'daily' ? today : today.slice(0, 7);
    const since = kind === 'daily' ? today : `${period}-01`;
    const r = await opts.usage.report({ by: 'session', tz, since, until: today });
    const spent = r.totals.pricedUsd;
    if (spent < budget) return null;
    if (!(await opts.repo.claimAlert(kind, period))) return null;
    const unknown = r.totals.unpricedTokens > 0 ? ` (plus ${r.totals.unpricedTokens} tokens on models without a price)` : '';
    const msg = `${kind === 'daily' ? 'Daily' : 'Monthly'} budget ${money(budget)} reached: ${money(spent)} spent ${kind === 'daily' ? 'today' : 'this month'}${unknown}. Top: ${topSpenders(r.rows)}`;
    await opts.notify(msg);
    return msg;
  }

  async function check(): Promise<string[]> {
    try {
      const s = await opts.settings();
      if (!(s.dailyBudgetUsd > 0) && !(s.monthlyBudgetUsd > 0)) return [];
      const tz = opts.tz();
      const zone = createZone(tz);
      const now = clock();
      const today = new Date(now + zone.offsetAt(now)).toISOString().slice(0, 10);
      const out: string[] = [];
      for (const [kind, budget] of [['daily', s.dailyBudgetUsd], ['monthly', s.monthlyBudgetUsd]] as const) {
        const m = await checkOne(kind, budget, today, tz);
        if (m) out.push(m);
      }
      return out;
    } catch (e) {
      log(`[usage] budget check failed: ${(e as Error).message}`);
      return [];
    }
  }

  return {
    poke() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        running ??= check().finally(() => (running = null));
      }, opts.debounceMs ?? 2000);
      timer.unref();
    },
    check: () => (running ??= check().finally(() => (running = null))),
    close() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
