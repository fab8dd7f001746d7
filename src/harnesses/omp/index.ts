/**
 * omp (oh-my-pi): a pi derivative run by Bun, with pi's session format plus a title line, exit records,
 * a run file per interactive process and a per-terminal pointer to the current session. The wrapper,
 * the extension and the headless commands are pi's (../pi/family.ts).
 */
import { join } from 'node:path';
import { defineHarness } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { ownedTarget } from '../../hooks/install/target.ts';
import { userHome } from '../homes.ts';
import { familyHeadless, familyHooks, familyStartArgs, planFamily, type FamilyMember } from '../pi/family.ts';
import { ompResumeArgv } from './commands.ts';
import { piMessageArg } from '../pi/commands.ts';

const member: FamilyMember = {
  bin: 'omp',
  asset: 'omp-extension',
  resumeFlag: '--resume',
  mcpNote: 'omp reads MCP servers only from config files; Muster reaches it through the extension instead',
};

export const omp = defineHarness({
  name: 'omp',
  label: 'omp (oh-my-pi)',
  bin: 'omp',
  display: {
    mark: 'OMP',
    color: '#b7791f',
    critters: [['bee', '🐝'], ['butterfly', '🦋'], ['ladybug', '🐞'], ['snail', '🐌'], ['frog', '🐸'], ['parrot', '🦜']],
    dot: '🟡',
  },
  mcpClientNames: [/^omp|oh-my-pi/i],
  homes(env) {
    const home = join(userHome(env), '.omp');
    return { data: home, config: join(home, 'agent') };
  },
  isValidId: isUuid,
  async createSource(d) {
    const { createOmpSource } = await import('./discovery/omp-source.ts');
    return createOmpSource({ home: d.homes.data, proc: d.proc, index: d.index, git: d.git, cold: d.cold });
  },
  resumeArgv: (id) => (isUuid(id) ? ompResumeArgv(id.toLowerCase()) : null),
  send: {
    // omp's arguments are pi's: the same first prompt cannot start with - or @.
    resumeWithPrompt: (id, text) => {
      const arg = piMessageArg(text);
      return isUuid(id) && arg !== null ? [...ompResumeArgv(id.toLowerCase()), arg] : null;
    },
  },
  planLaunch: (ctx) => planFamily(member, ctx),
  startArgs: familyStartArgs,
  hooks: familyHooks,
  installTarget: (ctx) => ownedTarget(join(ctx.homes.config, 'extensions', 'muster-status.ts'), ctx.asset('omp-extension'), 'auto-loaded extension; every omp started after install'),
  headless: familyHeadless(member),
  defaultAuditSpec: (s) => `cli:omp${s.model ? `/${s.model}` : ''}`,
});
