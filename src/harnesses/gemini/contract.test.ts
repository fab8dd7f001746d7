/**
 * The adapter contract (and its source checks), run against a temp Gemini home holding real chat
 * files Gemini CLI 0.61.0 wrote, and a live session held by a real child process that looks like a
 * gemini worker (its argv names the session, as `muster gemini`'s does), read from the real process table.
 */
import { runAdapterContract } from '../contract.test-support.ts';
import { gemini } from './index.ts';
import { createProc } from '../../discovery/proc/index.ts';
import { createGeminiSource } from './discovery/source.ts';
import { INTERACTIVE, PRINTED, standInWorker, tempGeminiHome } from './discovery/gemini-fixtures.test-support.ts';

runAdapterContract(gemini, async () => {
  const h = tempGeminiHome();
  const child = await standInWorker(h.root, ['--session-id', INTERACTIVE], h.cwd);
  return {
    source: createGeminiSource({ home: h.home, proc: createProc() }),
    dormantId: PRINTED,
    liveId: INTERACTIVE,
    async cleanup() {
      child.kill('SIGKILL');
      h.cleanup();
    },
  };
});
