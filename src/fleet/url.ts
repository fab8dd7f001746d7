/**
 * The fleet's database URL: checked before anything connects, redacted wherever it is shown, and
 * scrubbed out of any message that might repeat it. The URL is libpq's: `postgres://` or
 * `postgresql://`, with TLS options as query parameters (`sslmode=verify-full`, `sslrootcert=<file>`,
 * `sslcert`, `sslkey`) that the client honours.
 */
import { MusterError } from '../errors/index.ts';

export const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'] as const;
/** Query parameters that name a file the client reads (a TLS root certificate, client certificate, key). */
const FILE_PARAMS = ['sslrootcert', 'sslcert', 'sslkey'] as const;

export interface CheckedUrl {
  url: string;
  /** For display: the password (in the user part or a `password=` parameter) replaced by `***`. */
  redacted: string;
  sslmode: string | null;
  /** Files the URL names (checked to exist by the caller that has the file system). */
  files: string[];
}

/** Checks the shape of a fleet URL; throws `fleet_url_invalid` saying what is wrong (never repeating the URL). */
export function checkFleetUrl(raw: string): CheckedUrl {
  const url = raw.trim();
  const u = parseLoose(url);
  if (!u) throw new MusterError('fleet_url_invalid', 'not a URL; give postgres://user:password@host:5432/database');
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new MusterError('fleet_url_invalid', `the URL scheme must be postgres:// or postgresql:// (not ${u.protocol}//)`);
  }
  if (url.length > 4096) throw new MusterError('fleet_url_invalid', 'the URL is longer than 4096 characters');
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode !== null && !(SSL_MODES as readonly string[]).includes(sslmode)) {
    throw new MusterError('fleet_url_invalid', `sslmode must be one of ${SSL_MODES.join(', ')}`);
  }
  const files = FILE_PARAMS.flatMap((p) => u.searchParams.getAll(p));
  if (files.some((f) => !f.startsWith('/'))) throw new MusterError('fleet_url_invalid', `${FILE_PARAMS.join(', ')} must be absolute paths`);
  return { url, redacted: redactFleetUrl(url), sslmode, files };
}

/** The URL with every password replaced by `***`; what `fleet status` and messages show. */
export function redactFleetUrl(raw: string): string {
  const u = parseLoose(raw.trim());
  if (!u) return '(unparseable URL)';
  if (u.password) u.password = '***';
  if (u.searchParams.has('password')) u.searchParams.set('password', '***');
  return u.toString().replace(`@${DUMMY_HOST}/`, '@/');
}

/** A host-less URL with a user part (`postgres://user@/db?host=/socket/dir`) parses with a stand-in host, as the driver does. */
const DUMMY_HOST = 'socket.invalid';
function parseLoose(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    try {
      return new URL(raw.replace('@/', `@${DUMMY_HOST}/`));
    } catch {
      return null;
    }
  }
}

/** Removes the URL's password (raw and decoded) from a message, e.g. one a driver built from it. */
export function scrubSecret(message: string, raw: string): string {
  let out = message.split(raw).join(redactFleetUrl(raw));
  const u = parseLoose(raw.trim());
  const secrets = new Set<string>();
  if (u?.password) {
    secrets.add(u.password);
    try {
      secrets.add(decodeURIComponent(u.password));
    } catch {}
  }
  const p = u?.searchParams.get('password');
  if (p) secrets.add(p);
  for (const s of secrets) if (s.length >= 3) out = out.split(s).join('***');
  return out;
}
