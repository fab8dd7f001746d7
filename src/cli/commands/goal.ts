/**
 * `muster goal <set|pause|resume|clear|show|ls|run> …` — goals through the daemon's API:
 *   set <sessionId> "<objective>" [--budget TOKENS] [--max-turns N] [--auditor SPEC] [--harness H] → { ok, goal }
 *   pause|resume|show <sessionId|goalId>  → { ok, goal };  clear <ref> → { ok, cleared }  (always works)
 *   ls [--status S]                        → { ok, goals }
 *   run <harness> [--cwd DIR] [--budget T] [--max-turns N] [--auditor SPEC] [--json] "<objective>"  (goal-run.ts)
 */
import { callApi, clientContext } from '../daemon-client.ts';
import { printOk, usageError } from '../output.ts';
import type { CommandContext } from '../command.ts';

const USAGE = 'muster goal set <sessionId> "<objective>" [--budget T] [--max-turns N] [--auditor SPEC] | pause|resume|clear|show <id> | ls [--status S] | run <harness> [--cwd DIR] [--budget T] [--max-turns N] [--auditor SPEC] [--json] "<objective>"';

const flag = (ctx: CommandContext, name: string): string | undefined => {
  const v = ctx.flags[name];
  if (v === true) throw usageError(`--${name} needs a value`);
  return typeof v === 'string' ? v : undefined;
};

export async function run(ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = ctx.args;
  const api = clientContext(ctx.env);
  const one = (): string => {
    if (rest.length !== 1 || !rest[0]) throw usageError(`muster goal ${sub} <sessionId|goalId>`);
    return encodeURIComponent(rest[0]);
  };
  switch (sub) {
    case 'run': {
      const mod = await import('./goal-run.ts');
      return mod.run({ ...ctx, args: rest });
    }
    case 'set': {
      const [sessionId, ...words] = rest;
      if (!sessionId || words.length === 0) throw usageError('muster goal set <sessionId> "<objective>"');
      const body = { sessionId, objective: words.join(' '), tokenBudget: flag(ctx, 'budget'), maxTurns: flag(ctx, 'max-turns'), auditor: flag(ctx, 'auditor'), harness: flag(ctx, 'harness') };
      printOk({ goal: (await callApi(api, 'POST', '/goals', body)).goal });
      return 0;
    }
    case 'pause':
    case 'resume':
      printOk({ goal: (await callApi(api, 'POST', `/goals/${one()}/${sub}`, sub === 'resume' ? {} : undefined)).goal });
      return 0;
    case 'clear':
      printOk({ cleared: (await callApi(api, 'DELETE', `/goals/${one()}`)).cleared ?? null });
      return 0;
    case 'show':
      printOk({ goal: (await callApi(api, 'GET', `/goals/${one()}`)).goal });
      return 0;
    case 'ls': {
      const status = flag(ctx, 'status');
      printOk({ goals: (await callApi(api, 'GET', `/goals${status ? `?status=${encodeURIComponent(status)}` : ''}`)).goals });
      return 0;
    }
    default:
      throw usageError(USAGE);
  }
}
