/** The wrapper's plan for `muster <harness>`: the harness's adapter decides what to inject, how. */
import { adapterFor } from '../harnesses/registry.ts';
import type { LaunchContext, LaunchPlan } from './plan-types.ts';

export function planLaunch(ctx: LaunchContext): LaunchPlan {
  return adapterFor(ctx.harness).planLaunch(ctx);
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
