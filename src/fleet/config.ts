/**
 * Where a host keeps its fleet membership, in MUSTER_HOME: `fleet.json` (the database URL — it holds
 * a password — and the host's name; 0600, written by rename so a reader never sees half of it) and
 * `host-id` (the host's stable id, 0600, created once). `MUSTER_FLEET_URL` (and `MUSTER_FLEET_NAME`)
 * in the daemon's environment take the place of the file. The URL is never printed back in full
 * (url.ts redacts it) and never logged.
 */
import { chmodSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MusterError } from '../errors/index.ts';
import { isHostId, isHostName } from './types.ts';

export interface FleetConfig {
  url: string;
  /** The host's name as other hosts show it. */
  name: string;
  /** Where the URL came from: `muster fleet join` (the file) or MUSTER_FLEET_URL. */
  source: 'file' | 'env';
}

export interface FleetFiles {
  config: string;
  hostId: string;
}

export function fleetFiles(home: string): FleetFiles {
  return { config: join(home, 'fleet.json'), hostId: join(home, 'host-id') };
}

/** The machine's hostname, trimmed to a valid host name. */
export function defaultHostName(): string {
  // eslint-disable-next-line no-control-regex -- a hostname with control characters is not shown as is
  const h = hostname().replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 64);
  return h || 'host';
}

/** The fleet this host belongs to: the environment first, then the file; null when it never joined. */
export function readFleetConfig(files: FleetFiles, env: NodeJS.ProcessEnv): FleetConfig | null {
  const envName = env.MUSTER_FLEET_NAME?.trim();
  const fromEnv = env.MUSTER_FLEET_URL?.trim();
  if (fromEnv) return { url: fromEnv, name: envName && isHostName(envName) ? envName : defaultHostName(), source: 'env' };
  let text: string;
  try {
    text = readFileSync(files.config, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new MusterError('config_malformed', `cannot read ${files.config}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MusterError('config_malformed', `${files.config} is not JSON; run \`muster fleet leave\`, then join again`);
  }
  const c = parsed as { url?: unknown; name?: unknown };
  if (typeof c.url !== 'string' || c.url === '' || !isHostName(c.name)) {
    throw new MusterError('config_malformed', `${files.config} lacks a url or a valid name; run \`muster fleet leave\`, then join again`);
  }
  return { url: c.url, name: c.name, source: 'file' };
}

/** Writes the membership (0600, atomically). */
export function writeFleetConfig(files: FleetFiles, config: { url: string; name: string }): void {
  const staged = `${files.config}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(staged, `${JSON.stringify({ url: config.url, name: config.name, joinedAt: new Date().toISOString() })}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(staged, files.config);
    chmodSync(files.config, 0o600);
  } catch (e) {
    throw new MusterError('store_error', `cannot write ${files.config}: ${(e as Error).message}`);
  } finally {
    rmSync(staged, { force: true });
  }
}

export function removeFleetConfig(files: FleetFiles): void {
  rmSync(files.config, { force: true });
}

/** The host's stable id: read, or created once (linked into place, so two racing creators agree). */
export function loadOrCreateHostId(files: FleetFiles): string {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const id = readFileSync(files.hostId, 'utf8').trim();
      if (isHostId(id)) return id;
      rmSync(files.hostId, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new MusterError('store_error', `cannot read ${files.hostId}: ${(e as Error).message}`);
    }
    const id = newHostId();
    const staged = `${files.hostId}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(staged, `${id}\n`, { mode: 0o600, flag: 'wx' });
      linkSync(staged, files.hostId);
      return id;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new MusterError('store_error', `cannot write ${files.hostId}: ${(e as Error).message}`);
    } finally {
      rmSync(staged, { force: true });
    }
  }
  throw new MusterError('store_error', `${files.hostId} keeps changing; is another program writing it?`);
}

/** `hst_` + 26 random lower-case base32 characters. */
export function newHostId(): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let out = '';
  for (const b of randomBytes(26)) out += alphabet[b % 32];
  return `hst_${out}`;
}
