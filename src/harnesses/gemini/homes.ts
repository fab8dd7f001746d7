/**
 * Gemini CLI keeps everything in `<home>/.gemini`, where home is `$GEMINI_CLI_HOME` when set (it
 * replaces the home directory for Gemini only), else the user's home.
 */
import { join } from 'node:path';
import { dirFromEnv, userHome } from '../homes.ts';

export function geminiHome(env: NodeJS.ProcessEnv): string {
  return join(dirFromEnv(env, 'GEMINI_CLI_HOME', userHome(env)), '.gemini');
}
