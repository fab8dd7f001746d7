/**
 * The goals' PagePort over the pager (src/pager/): a blocked goal opens a question page in the
 * operator's inbox (its answer resumes the goal), a settled goal one notice. Never throws.
 */
import { LIMITS, type Caller } from '../pager/index.ts';
import type { Harness } from '../core/session.ts';
import type { PagePort } from './types.ts';

/** The slice of the pager the goals use. */
export interface PagerLike {
  ask(input: Record<string, unknown>, caller: Caller): Promise<{ id: string }>;
  notify(input: Record<string, unknown>, caller: Caller): Promise<unknown>;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function callerFor(sessionId: string, harness: Harness): Caller {
  return {
    attribution: { sessionId, harness, via: 'none', launchId: null, cwd: null, note: 'raised by the goal driver' },
    fallbackKey: `goal:${sessionId}`,
  };
}

export function createPagerPagePort(pager: PagerLike, log: (line: string) => void = () => {}): PagePort {
  return {
    async ask(i) {
      try {
        const page = await pager.ask({ question: clip(i.question, LIMITS.question), context: clip(i.context, LIMITS.context), urgency: 'high' }, callerFor(i.sessionId, i.harness));
        return page.id;
      } catch (e) {
        log(`[goals] could not page the operator: ${(e as Error).message}`);
        return null;
      }
    },
    async notify(i) {
      try {
        await pager.notify({ message: clip(i.message, LIMITS.question), level: i.level }, callerFor(i.sessionId, i.harness));
      } catch (e) {
        log(`[goals] could not notify the operator: ${(e as Error).message}`);
      }
    },
  };
}
