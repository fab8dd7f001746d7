/**
 * herdr's API socket, resolved as herdr's own CLI does:
 * HERDR_SOCKET_PATH, else HERDR_SESSION=<name> under the config dir, else the default session.
 * The config dir is $XDG_CONFIG_HOME/herdr, else $HOME/.config/herdr. `herdr-client.sock` is the
 * TUI's binary protocol and is never used.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

const SESSION_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function resolveHerdrSocket(env: NodeJS.ProcessEnv): string | null {
  const explicit = env.HERDR_SOCKET_PATH?.trim();
  if (explicit) return explicit;
  const config = join(env.XDG_CONFIG_HOME?.trim() || join(env.HOME || homedir(), '.config'), 'herdr');
  const name = env.HERDR_SESSION?.trim();
  if (name && name !== 'default') {
    // An invalid name would make herdr refuse too; never build a path out of `..`.
    if (!SESSION_NAME.test(name) || name === '.' || name === '..') return null;
    return join(config, 'sessions', name, 'herdr.sock');
  }
  return join(config, 'herdr.sock');
}
