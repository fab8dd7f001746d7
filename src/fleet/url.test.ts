// The fleet URL: checked before anything connects, shown only redacted, scrubbed from messages.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { checkFleetUrl, redactFleetUrl, scrubSecret } from './url.ts';
import { MusterError } from '../errors/index.ts';

const refused = (url: string, re: RegExp) => assert.throws(() => checkFleetUrl(url), (e: unknown) => e instanceof MusterError && e.code === 'fleet_url_invalid' && re.test(e.message) && !e.message.includes('hunter2'));

it('accepts postgres URLs with TLS options and unix-socket hosts', () => {
  const c = checkFleetUrl(' postgresql://muster:hunter2@db.example:5432/fleet?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem ');
  assert.equal(c.sslmode, 'verify-full');
  assert.deepEqual(c.files, ['/etc/ssl/ca.pem']);
  assert.equal(c.redacted, 'postgresql://muster:***@db.example:5432/fleet?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem');
  assert.equal(checkFleetUrl('postgres://muster:hunter2@/fleet?host=/run/pg').redacted, 'postgres://muster:***@/fleet?host=/run/pg');
  assert.equal(checkFleetUrl('postgres:///fleet?host=/run/pg').sslmode, null);
});

it('refuses what is not a PostgreSQL URL, an unknown sslmode, a relative certificate path — without repeating the password', () => {
  refused('mysql://u:hunter2@h/d', /postgres:\/\//);
  refused('not a url hunter2', /not a URL/);
  refused('postgres://u:hunter2@h/d?sslmode=sometimes', /sslmode must be one of/);
  refused('postgres://u:hunter2@h/d?sslrootcert=ca.pem', /absolute/);
});

it('redacts passwords in the user part and in a password parameter; scrubs them out of any message', () => {
  assert.equal(redactFleetUrl('postgres://u:p%40ss@h/d?password=hunter2'), 'postgres://u:***@h/d?password=***');
  assert.equal(redactFleetUrl('::'), '(unparseable URL)');
  const url = 'postgres://u:p%40ssword@h/d';
  assert.equal(scrubSecret(`cannot connect to ${url}: password p@ssword was wrong (p%40ssword)`, url), 'cannot connect to postgres://u:***@h/d: password *** was wrong (***)');
});
