/**
 * Builds every session source with its real ports: the process table, the store's transcript index,
 * one shared git reader, and harness homes read from the daemon's environment.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SessionSource, TranscriptIndex } from '../discovery/contract.ts';
import type { ProcPort } from '../discovery/proc/types.ts';
import { createProc } from '../discovery/proc/index.ts';
import { createGitReader } from '../discovery/git/index.ts';
import { createClaudeSource } from '../harnesses/claude/discovery/index.ts';
import { createCodexSource } from '../harnesses/codex/discovery/index.ts';
import { createOpenCodeSource } from '../harnesses/opencode/discovery/index.ts';
import { createPiSource } from '../harnesses/pi/discovery/index.ts';
import { createOmpSource } from '../harnesses/omp/discovery/index.ts';

export interface SourcesOptions {
  env: NodeJS.ProcessEnv;
  index: TranscriptIndex;
  proc?: ProcPort;
}

export function createSources(opts: SourcesOptions): { sources: SessionSource[]; proc: ProcPort } {
  const env = opts.env;
  const home = env.HOME || homedir();
  const proc = opts.proc ?? createProc();
  const git = createGitReader({ ttlMs: 2000 });
  const index = opts.index;
  const sources: SessionSource[] = [
    createClaudeSource({ home: env.CLAUDE_CONFIG_DIR?.trim() || join(home, '.claude'), proc, index, git }),
    createCodexSource({ home: env.CODEX_HOME || join(home, '.codex'), proc, index, git }),
    createOpenCodeSource({ home: join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'opencode'), env, proc, index, git }),
    createPiSource({ home: env.PI_CODING_AGENT_DIR || join(home, '.pi', 'agent'), proc, index, git }),
    createOmpSource({ home: join(home, '.omp'), proc, index, git }),
  ];
  return { sources, proc };
}
