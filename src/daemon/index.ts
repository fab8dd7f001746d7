export { createDaemon, DEFAULT_PORT, type Daemon, type DaemonOptions } from './create-daemon.ts';
export { buildIdentity, VERSION, type BuildIdentity } from './identity.ts';
export { resolvePaths, readToken, type MusterPaths } from './paths.ts';
