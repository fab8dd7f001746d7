/**
 * Issue 3, figure 2 — cold index of a Codex rollout corpus (default 1 GiB in 2,000 rollouts under
 * sessions/YYYY/MM/DD/): the Codex source's first list() as a throughput ratio to JSON.parse of every line.
 * Env: BENCH_CORPUS_MB (default 1024), BENCH_CORPUS_FILES (default 2000).
 * Run: node --import tsx bench/discovery-cold-codex.ts
 */
import { join } from 'node:path';
import { createCodexSource } from '../src/harnesses/codex/discovery/index.ts';
import { generateCodexCorpus } from './corpus/codex-corpus.ts';
import { runColdIndex } from './corpus/cold-index.ts';

process.exitCode = await runColdIndex({
  label: 'codex',
  generate: (home, totalBytes, files) => generateCodexCorpus({ home, totalBytes, files }),
  // No control socket exists in the temp home: the source must not find a daemon to ask.
  source: (home, index) => createCodexSource({ home, index, controlSocket: join(home, 'no-daemon.sock') }),
});
