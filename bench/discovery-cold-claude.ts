/**
 * Issue 3, figure 1 — cold index of a Claude corpus (default 1 GiB in 2,000 transcripts with the real
 * record mix): the Claude source's first list() as a throughput ratio to JSON.parse of every line.
 * Env: BENCH_CORPUS_MB (default 1024), BENCH_CORPUS_FILES (default 2000).
 * Run: node --import tsx bench/discovery-cold-claude.ts
 */
import { createClaudeSource } from '../src/harnesses/claude/discovery/index.ts';
import { generateClaudeCorpus } from './corpus/claude-corpus.ts';
import { runColdIndex } from './corpus/cold-index.ts';

process.exitCode = await runColdIndex({
  label: 'claude',
  generate: (home, totalBytes, files) => generateClaudeCorpus({ home, totalBytes, files }),
  source: (home, index) => createClaudeSource({ home, index }),
});
