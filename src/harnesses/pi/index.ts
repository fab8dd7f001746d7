/**
 * pi: one tree-structured JSONL session per conversation under `$PI_CODING_AGENT_DIR/sessions/`, and
 * nothing else on disk that says a session is live. Muster's extension (the wrapper's `-e`, or
 * `hooks install`) reports status and carries the pager's tools. omp shares most of this (family.ts).
 */
import { join } from 'node:path';
import { defineHarness } from '../adapter.ts';
import { isUuid } from '../../core/ids.ts';
import { ownedTarget } from '../../hooks/install/target.ts';
import { dirFromEnv, userHome } from '../homes.ts';
import { piMessageArg, piResumeArgv } from './commands.ts';
import { familyHeadless, familyHooks, familyStartArgs, planFamily, type FamilyMember } from './family.ts';

const member: FamilyMember = { bin: 'pi', asset: 'pi-extension', resumeFlag: '--session', mcpNote: 'pi has no MCP; Muster reaches it through the extension' };

export const pi = defineHarness({
  name: 'pi',
  label: 'pi',
  bin: 'pi',
  display: {
    mark: 'PI',
    color: '#7c3aed',
    critters: [['dragon', '🐉'], ['unicorn', '🦄'], ['phoenix', '🐦‍🔥'], ['wolf', '🐺'], ['eagle', '🦅'], ['tiger', '🐯']],
    dot: '🟣',
  },
  mcpClientNames: [],
  homes(env) {
    const agent = dirFromEnv(env, 'PI_CODING_AGENT_DIR', join(userHome(env), '.pi', 'agent'));
    return { data: agent, config: agent };
  },
  isValidId: isUuid,
  async createSource(d) {
    const { createPiSource } = await import('./discovery/pi-source.ts');
    return createPiSource({ home: d.homes.data, proc: d.proc, index: d.index, git: d.git, cold: d.cold });
  },
  resumeArgv: (id) => (isUuid(id) ? piResumeArgv(id.toLowerCase()) : null),
  send: {
    resumeWithPrompt: (id, text) => {
      const arg = piMessageArg(text);
      return isUuid(id) && arg !== null ? [...piResumeArgv(id.toLowerCase()), arg] : null;
    },
  },
  planLaunch: (ctx) => planFamily(member, ctx),
  startArgs: familyStartArgs,
  hooks: familyHooks,
  installTarget: (ctx) => ownedTarget(join(ctx.homes.config, 'extensions', 'muster-status.ts'), ctx.asset('pi-extension'), 'auto-loaded extension; every pi started after install'),
  headless: familyHeadless(member),
  defaultAuditSpec: (s) => `cli:pi${s.model ? `/${s.model}` : ''}`,
});
