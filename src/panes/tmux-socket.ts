/**
 * Which tmux server to talk to, resolved the way tmux itself does for a client without `-S`/`-L`:
 * the server named by `TMUX` (`<socket>,<pid>,<session>`) when set, else the default socket
 * `${TMUX_TMPDIR:-/tmp}/tmux-<uid>/default`. Always passed explicitly as `-S` afterwards, so the
 * daemon never depends on its own environment at call time.
 */
import { join } from 'node:path';

export function resolveTmuxSocket(env: NodeJS.ProcessEnv, uid: number = process.getuid?.() ?? 0): string {
  const fromTmux = env.TMUX?.split(',')[0]?.trim();
  if (fromTmux && fromTmux.startsWith('/')) return fromTmux;
  const dir = env.TMUX_TMPDIR?.trim() || '/tmp';
  return join(dir, `tmux-${uid}`, 'default');
}
