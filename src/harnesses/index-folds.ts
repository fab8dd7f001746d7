/**
 * The cold index's folds, by kind: how each harness reads one transcript file into its index entry
 * (OpenCode: one chunk of sessions of its store).
 * The worker entry (index-worker.ts) runs them in worker threads; the daemon keeps the same registry
 * to read in its own thread too, beside the workers or in their place when one cannot start (pool.ts).
 */
import type { FoldRegistry } from '../discovery/index-pool/index.ts';
import { foldClaudeTask } from './claude/discovery/transcript-scan.ts';
import { foldCodexTask } from './codex/discovery/rollout-file.ts';
import { piFold } from './pi/discovery/index.ts';
import { ompAfterRead } from './omp/discovery/title-line.ts';
import { OPENCODE_COLD_KIND, foldOpenCodeTask } from './opencode/discovery/cold.ts';

export const INDEX_FOLDS: FoldRegistry = {
  claude: foldClaudeTask,
  codex: foldCodexTask,
  pi: piFold('pi'),
  omp: piFold('omp', ompAfterRead),
  [OPENCODE_COLD_KIND]: foldOpenCodeTask,
};
