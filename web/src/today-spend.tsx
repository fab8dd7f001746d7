/** Today's running spend in the top bar: refetched whenever the daemon stores new usage records. */
import { useEffect, useState } from 'react';
import { localDate, money, usage, type UsageFigures } from './spend-api.ts';

export function TodaySpend({ tick, onOpen }: { tick: number; onOpen(): void }) {
  const [today, setToday] = useState<UsageFigures | null>(null);
  useEffect(() => {
    let live = true;
    const day = localDate(Date.now());
    usage({ by: 'day', since: day, until: day }).then((r) => live && setToday(r.totals), () => live && setToday(null));
    return () => void (live = false);
  }, [tick]);
  if (!today) return null;
  const title = today.costUsd === null ? `tokens on ${today.unpricedModels.join(', ')} have no price: the figure is the priced part` : 'spent today (list prices)';
  return (
    <button type="button" className="quiet today-spend" onClick={onOpen} title={title} data-testid="today-spend">
      today <b>{money(today)}</b>
    </button>
  );
}
