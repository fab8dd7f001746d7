/** Picks the per-harness plan (what to inject, how) for `muster <harness>`. */
import { planClaude } from './plan-claude.ts';
import { planCodex } from './plan-codex.ts';
import { planOpencode, planPiFamily } from './plan-inprocess.ts';
import type { LaunchContext, LaunchPlan } from './plan-types.ts';

export function planLaunch(ctx: LaunchContext): LaunchPlan {
  switch (ctx.harness) {
    case 'claude':
      return planClaude(ctx);
    case 'codex':
      return planCodex(ctx);
    case 'opencode':
      return planOpencode(ctx);
    case 'pi':
    case 'omp':
      return planPiFamily({ ...ctx, harness: ctx.harness });
  }
}

/** Splits the wrapper's own `--name NAME` (first one, before `--`) from the harness's arguments. */
export function splitWrapperArgs(args: string[]): { name: string | null; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') break;
    if (a === '--name' && i + 1 < args.length) return { name: args[i + 1] as string, rest: [...args.slice(0, i), ...args.slice(i + 2)] };
    if (a.startsWith('--name=')) return { name: a.slice(7), rest: [...args.slice(0, i), ...args.slice(i + 1)] };
  }
  return { name: null, rest: [...args] };
}
