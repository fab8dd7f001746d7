/**
 * Builds every session source with its real ports: the process table, the store's transcript index,
 * one shared git reader, and harness homes read from the daemon's environment.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { SessionSource, TranscriptIndex } from '../sources/contract.ts';
import type { ProcPort } from '../sources/proc/types.ts';
import { createProc } from '../sources/proc/index.ts';
import { createGitReader } from '../sources/git/index.ts';
import { createClaudeSource } from '../sources/claude/index.ts';
import { createCodexSource } from '../sources/codex/index.ts';
import { createOpenCodeSource } from '../sources/opencode/index.ts';
import { createPiSource } from '../sources/pi/index.ts';
import { createOmpSource } from '../sources/omp/index.ts';

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
